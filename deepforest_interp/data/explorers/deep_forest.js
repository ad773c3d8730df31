function render(body, D, root) {
  var K = D.K, st = {layer: 0, row: 0, tree: 0, step: 0}, mi = D.map_index;
  var ctl = U.el('div', {'class': 'dfx-ctl'}, body);
  var layS = U.select(ctl, 'layer', D.layers.map(function(L) { return 'layer ' + L.index; }), 'layer');
  var rowS = U.range(ctl, 'row', D.rows.length, 'row');
  var treeS = U.el('select', {'data-control': 'tree'}, U.el('label', {}, ctl, 'tree '));
  var stepS = U.range(ctl, 'step', 1, 'step');
  var prev = U.el('button', {'data-control': 'prev'}, ctl, '\u25c0 back'), next = U.el('button', {'data-control': 'next'}, ctl, 'next \u25b6');
  var endB = U.el('button', {'data-control': 'end'}, ctl, 'to the leaf');
  var info = U.el('div', {'class': 'dfx-note', 'data-role': 'info'}, body);
  var main = U.el('div', {'class': 'dfx-row'}, body);
  var cardsBox = U.el('div', {style: 'flex:1 1 640px;min-width:560px'}, main), side = U.el('div', {style: 'flex:0 1 330px'}, main);
  function fillTrees() {
    treeS.innerHTML = '';
    D.layers[st.layer].trees.forEach(function(t, i) { U.el('option', {value: i}, treeS, t.label); });
    treeS.value = Math.min(st.tree, D.layers[st.layer].trees.length - 1);
  }
  function vecTable(parent, cols, heads, hi, role) {
    var tb = U.el('table', role ? {'data-role': role} : {}, parent), hd = U.el('tr', {}, tb);
    U.el('th', {'class': 'l'}, hd, 'feature');
    heads.forEach(function(h, j) { var th = U.el('th', {'class': j === hi ? 'hl' : ''}, hd);
      h.split('|').forEach(function(part, q) { if (q) U.el('br', {}, th); th.appendChild(document.createTextNode(part)); }); });
    for (var k = 0; k < K; k++) {
      var tr = U.el('tr', {}, tb); U.el('td', {'class': 'l'}, tr, D.features[k]);
      cols.forEach(function(c, j) { U.el('td', {'class': U.cls(c[k]) + (j === hi ? ' hl' : '')}, tr, c[k] ? U.s(c[k]) : '0'); });
    }
    var sr = U.el('tr', {}, tb); U.el('td', {'class': 'l'}, sr, 'sum');
    cols.forEach(function(c, j) { U.el('td', {'class': j === hi ? 'hl' : ''}, sr, U.s(c.reduce(function(a, b) { return a + b; }, 0))); });
    return tb;
  }
  function update() {
    var L = D.layers[st.layer], R = D.rows[st.row].layers[st.layer], T = L.trees[st.tree], path = R.paths[st.tree];
    var nsteps = path.length - 1; stepS.max = nsteps; if (st.step > nsteps) st.step = nsteps; stepS.value = st.step;
    root.querySelector('[data-role=step-value]').textContent = st.step + ' / ' + nsteps;
    root.setAttribute('data-layer', st.layer); root.setAttribute('data-row', st.row); root.setAttribute('data-tree', st.tree);
    root.setAttribute('data-step', st.step);
    info.textContent = 'data row ' + D.row_ids[st.row] + ', ' + (D.output ? 'probability of class ' + D.output : 'the prediction') +
      '; layer ' + L.index + ' averages ' + L.n_trees + ' trees (forests \u00d7 fold models \u00d7 trees); the pass uses the ' +
      D.map_names[mi].replace('|', ', ') + ' map; step ' + st.step + ' of ' + nsteps + ' on this tree\u2019s path.';
    cardsBox.innerHTML = ''; side.innerHTML = '';
    var table = new Array(K).fill(0);
    var root0 = T.nodes[path[0]];
    var c0 = U.el('div', {'class': 'dfx-card' + (st.step === 0 ? ' cur' : '')}, cardsBox);
    U.el('b', {}, c0, 'Root'); U.el('div', {'class': 'dfx-note'}, c0, 'The table of the tree starts at zero for every original feature; ' +
      'the bias of this tree is the root mean \u03bc(t\u2080) = ' + U.f(root0.v, 6) + '.');
    for (var i = 1; i <= st.step; i++) {
      var p = T.nodes[path[i - 1]], c = T.nodes[path[i]], f = p.f, yes = p.left === path[i];
      var card = U.el('div', {'class': 'dfx-card' + (i === st.step ? ' cur' : ''), 'data-step': i}, cardsBox);
      var xv = f < K ? D.rows[st.row].x[f] : R.z[f - K];
      U.el('b', {}, card, 'Step ' + i + ': ' + D.split_names[f] + ' \u2264 ' + U.f(p.thr) + ' ? ' + (yes ? 'yes' : 'no') +
           ' (value ' + U.f(xv) + ')');
      U.el('div', {'class': 'dfx-note'}, card, 'node mean ' + U.f(p.v) + ' \u2192 ' + U.f(c.v) + ': the tree\u2019s increment \u0394\u03bc(t) = ' + U.s(c.dmu, 6));
      if (f < K) {
        table[f] += c.dmu;
        U.el('div', {}, card, 'A split on the original feature ' + D.features[f] + ' (Algorithm 1, line 7): the whole increment ' +
             U.s(c.dmu) + ' goes to ' + D.features[f] + '.');
      } else {
        var sumE = c.est.reduce(function(a, b) { return a + b; }, 0);
        U.el('div', {}, card, 'A split on a class-vector column (lines 9\u201310). Estimation step (Eq. 15\u201317): each feature\u2019s ' +
             'estimated increment is the change of the mean contribution (previous layer, out of fold) over the in-bag training rows ' +
             'of the node: \u03a3 estimates = ' + U.s(sumE) + ' vs the actual ' + U.s(c.dmu) + '. Calibration (Eq. 20) makes them add up; the three maps side by side:');
        vecTable(card, [c.est].concat(c.maps), ['estimate|Eq. 16'].concat(D.map_names), mi + 1, 'maps');
        for (var k = 0; k < K; k++) table[k] += c.maps[mi][k];
      }
    }
    U.el('b', {}, side, st.step < nsteps ? 'This tree\u2019s table after step ' + st.step : 'This tree\u2019s table at its leaf (Algorithm 1)');
    var tv = table.slice(), sumT = tv.reduce(function(a, b) { return a + b; }, 0);
    var tt = vecTable(side, [tv], ['contribution'], -1, st.step === nsteps ? 'tree-table-end' : 'tree-table');
    tt.setAttribute('data-values', JSON.stringify(tv));
    U.el('div', {'class': 'dfx-note'}, side, '\u03bc(t\u2080) + \u03a3 = ' + U.f(root0.v + sumT, 6) + ' = node mean ' +
         U.f(T.nodes[path[st.step]].v, 6) + ' (Eq. 20 keeps the sum exact at every step)');
    if (st.step === nsteps) {
      var want = R.expected.table[st.tree], ok = want.every(function(w, k) { return Math.abs(w - tv[k]) <= 1e-9 * Math.max(1, Math.abs(w)); });
      U.el('div', {'class': ok ? 'ok' : 'bad', 'data-role': 'table-check'}, side, ok ? '= the library\u2019s Algorithm 1 table \u2713' : '\u2260 the library\u2019s table');
      U.el('b', {}, side, 'Layer ' + L.index + ': the average over its ' + L.n_trees + ' trees (Eq. 28\u201330)');
      vecTable(side, [R.contrib], ['contribution'], -1, 'layer-contrib');
      var sum = R.bias + R.contrib.reduce(function(a, b) { return a + b; }, 0);
      var o = U.el('div', {}, side); o.appendChild(document.createTextNode('bias ' + U.f(R.bias, 6) + ' + sum = '));
      U.el('b', {'data-role': 'layer-output', 'data-value': sum}, o, U.f(sum, 6));
      var ok2 = Math.abs(sum - R.expected.output) <= 1e-9 * Math.max(1, Math.abs(R.expected.output));
      U.el('div', {'class': ok2 ? 'ok' : 'bad'}, side, (ok2 ? '= ' : '\u2260 ') + 'the layer\u2019s output ' + U.f(R.expected.output, 6) + (ok2 ? ' \u2713' : ''));
    } else {
      U.el('div', {'class': 'dfx-note'}, side, 'Press \u201cnext\u201d (or move the step slider) to follow the path; \u201cto the leaf\u201d ends at the exact contributions of the layer.');
    }
  }
  layS.addEventListener('change', function() { st.layer = +layS.value; st.tree = 0; st.step = 0; fillTrees(); update(); });
  rowS.addEventListener('input', function() { st.row = +rowS.value; st.step = 0; update(); });
  treeS.addEventListener('change', function() { st.tree = +treeS.value; st.step = 0; update(); });
  stepS.addEventListener('input', function() { st.step = +stepS.value; update(); });
  prev.addEventListener('click', function() { st.step = Math.max(0, st.step - 1); update(); });
  next.addEventListener('click', function() { st.step += 1; update(); });
  endB.addEventListener('click', function() { st.step = 1e9; update(); });
  fillTrees(); update();
}
