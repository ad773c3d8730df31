function render(body, D, root) {
  var K = D.features.length, st = {row: 0, tree: 0};
  // a missing value (NaN, sent as null) is shown as such: the tree routed it by its missing-value rule
  var xval = function(v) { return v === null ? 'NaN (missing)' : U.f(v); };
  var ctl = U.el('div', {'class': 'dfx-ctl'}, body);
  var rowS = U.range(ctl, 'row', D.rows.length, 'row');
  var treeS = U.select(ctl, 'tree', D.trees.map(function(t) { return 'tree ' + t.index; }), 'tree');
  var info = U.el('span', {'class': 'dfx-note', 'data-role': 'row-info'}, ctl);
  var top = U.el('div', {'class': 'dfx-row'}, body);
  var svgBox = U.el('div', {}, top), tabBox = U.el('div', {}, top);
  U.el('div', {'class': 'dfx-note'}, body, 'The forest average building up: contribution of each feature (Eq. 6) from the first M trees, ' +
       'ending at the forest\u2019s contributions; bias + their sum = the model output.');
  var bottom = U.el('div', {'class': 'dfx-row'}, body);
  var chartBox = U.el('div', {}, bottom), forestBox = U.el('div', {}, bottom);
  function name(k) { return D.features[k]; }
  function drawPath(tr, path) {
    svgBox.innerHTML = '';
    var h = 30 + 52 * path.length, W = 420, cx = 210;
    var svg = U.svg('svg', {width: W, height: h, 'data-role': 'path-svg'}, svgBox);
    for (var i = 0; i < path.length; i++) {
      var nd = tr.nodes[path[i]], y = 12 + 52 * i, leaf = nd[4] < 0;
      if (i + 1 < path.length) {
        var ch = tr.nodes[path[i + 1]], left = nd[4] === path[i + 1], sib = tr.nodes[left ? nd[5] : nd[4]];
        var inc = ch[2] - nd[2];
        U.svg('line', {x1: cx, y1: y + 30, x2: cx, y2: y + 52, stroke: '#e08a00', 'stroke-width': 3}, svg);
        var sx = left ? cx + 120 : cx - 120;
        U.svg('line', {x1: cx, y1: y + 30, x2: sx, y2: y + 46, stroke: '#bbb', 'stroke-dasharray': '3 2'}, svg);
        U.svg('text', {x: sx + (left ? -10 : 10), y: y + 49, fill: '#999', 'text-anchor': left ? 'start' : 'end'}, svg,
              'v=' + U.f(sib[2]));
        U.svg('text', {x: left ? cx - 6 : cx + 6, y: y + 45, fill: inc >= 0 ? '#b2182b' : '#2166ac', 'font-weight': 600,
                       'text-anchor': left ? 'end' : 'start'}, svg,
              (left ? 'yes: ' : 'no: ') + U.s(inc) + ' \u2192 ' + name(nd[0]));
      }
      U.svg('rect', {x: cx - 95, y: y, width: 190, height: 30, rx: 5, fill: leaf ? '#fde8c8' : '#eef2fb',
                     stroke: '#889'}, svg);
      U.svg('text', {x: cx, y: y + 13, 'text-anchor': 'middle', 'font-weight': 600}, svg,
            leaf ? 'leaf: v = ' + U.f(nd[2]) : name(nd[0]) + (nd[1] === null ? ' not missing' : ' \u2264 ' + U.f(nd[1])) + '  (x = ' + xval(D.rows[st.row].x[nd[0]]) + ')');
      U.svg('text', {x: cx, y: y + 26, 'text-anchor': 'middle', fill: '#555'}, svg, 'v(t) = ' + U.f(nd[2]) + ', n = ' + nd[3]);
    }
  }
  function drawTable(tr, path, r, t) {
    tabBox.innerHTML = '';
    var tb = U.el('table', {'data-role': 'path-table'}, tabBox), hd = U.el('tr', {}, tb);
    ['step', 'split feature', 'increment v(child) \u2212 v(parent)', 'running sum'].forEach(function(h, j) { U.el('th', {'class': j < 2 ? 'l' : ''}, hd, h); });
    var run = tr.nodes[path[0]][2], contrib = new Array(K).fill(0);
    var r0 = U.el('tr', {}, tb); U.el('td', {'class': 'l'}, r0, 'root'); U.el('td', {'class': 'l'}, r0, 'bias v(t\u2080)');
    U.el('td', {}, r0, ''); U.el('td', {}, r0, U.f(run, 6));
    for (var i = 1; i < path.length; i++) {
      var p = tr.nodes[path[i - 1]], c = tr.nodes[path[i]], inc = c[2] - p[2];
      run += inc; contrib[p[0]] += inc;
      var rr = U.el('tr', {}, tb);
      U.el('td', {'class': 'l'}, rr, i); U.el('td', {'class': 'l'}, rr, name(p[0]));
      U.el('td', {'class': U.cls(inc)}, rr, U.s(inc, 6)); U.el('td', {}, rr, U.f(run, 6));
    }
    var last = U.el('tr', {'class': 'hl'}, tb); U.el('td', {'class': 'l'}, last, 'leaf');
    U.el('td', {'class': 'l'}, last, 'tree output');
    var want = r.expected.tree[t], ok = Math.abs(run - want) <= 1e-9 * Math.max(1, Math.abs(want));
    U.el('td', {'class': ok ? 'ok' : 'bad'}, last, ok ? '= predict \u2713' : '\u2260 predict ' + U.f(want));
    var end = U.el('td', {'data-role': 'path-end', 'data-value': run}, last, U.f(run, 6));
    U.el('div', {'class': 'dfx-note'}, tabBox, 'This tree\u2019s contributions (Eq. 4): the increments summed per feature.');
    var ct = U.el('table', {'data-role': 'tree-contrib'}, tabBox), h2 = U.el('tr', {}, ct);
    U.el('th', {'class': 'l'}, h2, 'feature'); U.el('th', {}, h2, 'value x'); U.el('th', {}, h2, 'f_T,k(x)');
    for (var k = 0; k < K; k++) { var q = U.el('tr', {}, ct); U.el('td', {'class': 'l'}, q, name(k));
      U.el('td', {}, q, xval(r.x[k])); U.el('td', {'class': U.cls(contrib[k])}, q, contrib[k] ? U.s(contrib[k]) : '0'); }
    return run;
  }
  function drawChart(r) {
    chartBox.innerHTML = '';
    var W = 430, H = 230, L = 50, R = 70, T = 12, B = 30, M = D.checkpoints, n = M.length;
    var lo = 0, hi = 0; r.cum.forEach(function(c) { c.forEach(function(v) { lo = Math.min(lo, v); hi = Math.max(hi, v); }); });
    if (hi - lo < 1e-12) { hi += 1; lo -= 1; }
    var logx = D.n_trees > 30, x0 = logx ? Math.log(1) : 1, x1 = logx ? Math.log(D.n_trees) : Math.max(2, D.n_trees);
    var sx = function(m) { var v = logx ? Math.log(m) : m; return L + (W - L - R) * (v - x0) / Math.max(1e-9, x1 - x0); };
    var sy = function(v) { return T + (H - T - B) * (hi - v) / (hi - lo); };
    var svg = U.svg('svg', {width: W, height: H, 'data-role': 'buildup'}, chartBox);
    U.svg('line', {x1: L, x2: W - R, y1: sy(0), y2: sy(0), stroke: '#999', 'stroke-dasharray': '4 3'}, svg);
    U.svg('line', {x1: L, x2: L, y1: T, y2: H - B, stroke: '#333'}, svg);
    U.svg('line', {x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: '#333'}, svg);
    [lo, hi].forEach(function(v) { U.svg('text', {x: L - 4, y: sy(v) + 4, 'text-anchor': 'end'}, svg, U.f(v, 3)); });
    U.svg('text', {x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle'}, svg, 'number of trees M' + (logx ? ' (log scale)' : ''));
    U.svg('text', {x: L, y: H - B + 13, 'text-anchor': 'middle'}, svg, '1');
    U.svg('text', {x: W - R, y: H - B + 13, 'text-anchor': 'middle'}, svg, D.n_trees);
    var order = []; for (var k = 0; k < K; k++) order.push(k);
    order.sort(function(a, b) { return Math.abs(r.contrib[b]) - Math.abs(r.contrib[a]); });
    order.slice(0, 8).forEach(function(k, j) {
      var pts = M.map(function(m, i) { return sx(m) + ',' + sy(r.cum[i][k]); }).join(' ');
      var col = U.palette[j % 10];
      U.svg('polyline', {points: pts, fill: 'none', stroke: col, 'stroke-width': 1.8}, svg);
      U.svg('text', {x: W - R + 4, y: sy(r.cum[n - 1][k]) + 4, fill: col}, svg, name(k));
    });
    D.trees.forEach(function(t, j) { if (j === st.tree) U.svg('line', {x1: sx(t.index + 1), x2: sx(t.index + 1), y1: T, y2: H - B,
        stroke: '#e08a00', 'stroke-width': 1}, svg); });
  }
  function drawForest(r) {
    forestBox.innerHTML = '';
    var tb = U.el('table', {'data-role': 'forest-table'}, forestBox), hd = U.el('tr', {}, tb);
    U.el('th', {'class': 'l'}, hd, 'feature'); U.el('th', {}, hd, 'forest f_F,k(x)');
    var sum = r.bias;
    for (var k = 0; k < K; k++) { var q = U.el('tr', {}, tb); U.el('td', {'class': 'l'}, q, name(k));
      U.el('td', {'class': U.cls(r.contrib[k])}, q, U.s(r.contrib[k])); sum += r.contrib[k]; }
    var b = U.el('tr', {}, tb); U.el('td', {'class': 'l'}, b, 'bias'); U.el('td', {}, b, U.f(r.bias, 6));
    var o = U.el('tr', {'class': 'hl'}, tb); U.el('td', {'class': 'l'}, o, 'bias + sum');
    U.el('td', {'data-role': 'forest-output', 'data-value': sum}, o, U.f(sum, 6));
    var ok = Math.abs(sum - r.expected.output) <= 1e-9 * Math.max(1, Math.abs(r.expected.output));
    U.el('div', {'class': ok ? 'ok' : 'bad'}, forestBox, (ok ? '= ' : '\u2260 ') + 'model output ' + U.f(r.expected.output, 6));
  }
  function update() {
    st.row = +rowS.value; st.tree = +treeS.value;
    var r = D.rows[st.row], tr = D.trees[st.tree], path = r.paths[st.tree];
    root.setAttribute('data-row', st.row); root.setAttribute('data-tree', st.tree);
    info.textContent = 'data row ' + D.row_ids[st.row] + (D.output ? ', output: class ' + D.output : '') +
      (D.kind === 'raw' ? ' (boosting: trees are summed with weight ' + U.f(tr.weight) + ')' : '');
    drawPath(tr, path); drawTable(tr, path, r, st.tree); drawChart(r); drawForest(r);
  }
  rowS.addEventListener('input', update); treeS.addEventListener('change', update);
  update();
}
