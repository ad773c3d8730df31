function render(body, D, root) {
  var n = D.y.length, P = D.panels, sel = null, mode = 'box';
  var ctl = U.el('div', {'class': 'dfx-ctl'}, body);
  var colS = U.select(ctl, 'colour by', ['(none)'].concat(D.features), 'color');
  colS.value = 1 + P[0];
  var l1 = U.el('label', {}, ctl); var rb = U.el('input', {type: 'radio', name: root.id + '-m', value: 'box', checked: 'checked', 'data-control': 'mode-box'}, l1);
  l1.appendChild(document.createTextNode(' box'));
  var l2 = U.el('label', {}, ctl); var rl = U.el('input', {type: 'radio', name: root.id + '-m', value: 'lasso', 'data-control': 'mode-lasso'}, l2);
  l2.appendChild(document.createTextNode(' lasso'));
  var clr = U.el('button', {'data-control': 'clear'}, ctl, 'clear selection');
  var status = U.el('span', {'class': 'dfx-note', 'data-role': 'selected-count'}, ctl, '');
  U.el('div', {'class': 'dfx-note'}, body, 'Drag in any panel to select points (box or lasso): the same rows light up in every panel. ' +
       'Black line: the kNN fit of the contributions from the feature alone; GOV = its leave-one-out R\u00b2 (1: the panel shows ' +
       'everything this feature contributes; low: the contribution depends on other features too). ' + n + ' of ' + D.n_rows + ' rows drawn.');
  var grid = U.el('div', {'class': 'dfx-row'}, body);
  var lo = Infinity, hi = -Infinity;
  D.y.forEach(function(r) { P.forEach(function(j) { lo = Math.min(lo, r[j]); hi = Math.max(hi, r[j]); }); });
  var pad = 0.05 * (hi - lo || 1); lo -= pad; hi += pad;
  var W = 250, H = 200, L = 42, R = 8, T = 8, B = 30, panels = [];
  P.forEach(function(j, pi) {
    var box = U.el('div', {'data-role': 'panel', 'data-feature': D.features[j]}, grid);
    var t = U.el('div', {style: 'font-weight:600'}, box, D.features[j] + '  GOV R\u00b2 = ' + D.gov[pi].toFixed(2));
    t.setAttribute('data-role', 'gov'); t.setAttribute('data-value', D.gov[pi]);
    // a missing value (null) cannot be placed on the axis: its point is not drawn and never selected
    var xl = Infinity, xh = -Infinity; D.x.forEach(function(r) { if (r[j] !== null) { xl = Math.min(xl, r[j]); xh = Math.max(xh, r[j]); } });
    var xp = 0.04 * (xh - xl || 1); xl -= xp; xh += xp;
    var sx = function(v) { return L + (W - L - R) * (v - xl) / (xh - xl); }, sy = function(v) { return T + (H - T - B) * (hi - v) / (hi - lo); };
    var ix = function(p) { return xl + (p - L) / (W - L - R) * (xh - xl); }, iy = function(p) { return hi - (p - T) / (H - T - B) * (hi - lo); };
    var svg = U.svg('svg', {width: W, height: H, style: 'cursor:crosshair;user-select:none', 'data-role': 'panel-svg'}, box);
    U.svg('rect', {x: L, y: T, width: W - L - R, height: H - T - B, fill: '#fff', stroke: '#999'}, svg);
    U.svg('line', {x1: L, x2: W - R, y1: sy(0), y2: sy(0), stroke: '#bbb', 'stroke-dasharray': '3 3'}, svg);
    [lo + pad, hi - pad].forEach(function(v) { U.svg('text', {x: L - 3, y: sy(v) + 4, 'text-anchor': 'end'}, svg, U.f(v, 2)); });
    [xl + xp, xh - xp].forEach(function(v, q) { U.svg('text', {x: sx(v), y: H - B + 12, 'text-anchor': q ? 'end' : 'start'}, svg, U.f(v, 3)); });
    U.svg('text', {x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle'}, svg, D.features[j]);
    U.svg('text', {x: 10, y: (T + H - B) / 2, transform: 'rotate(-90 10 ' + (T + H - B) / 2 + ')', 'text-anchor': 'middle'}, svg,
          'contribution' + (D.output ? ' to ' + D.output : ''));
    var g = U.svg('g', {}, svg), dots = [];
    for (var i = 0; i < n; i++) dots.push(U.svg('circle', {cx: D.x[i][j] === null ? L : sx(D.x[i][j]), cy: sy(D.y[i][j]), r: D.x[i][j] === null ? 0 : 2.6, 'data-i': i}, g));
    var fx = D.fit[pi][0], fy = D.fit[pi][1];
    U.svg('polyline', {points: fx.map(function(v, q) { return sx(v) + ',' + sy(fy[q]); }).join(' '), fill: 'none', stroke: '#000',
                       'stroke-width': 1.6, 'pointer-events': 'none'}, svg);
    var mean = U.el('div', {'class': 'dfx-note', 'data-role': 'sel-mean'}, box, '\u00a0');
    var shape = null, pts = [], start = null;
    function pos(ev) { var b = svg.getBoundingClientRect(); return [ev.clientX - b.left, ev.clientY - b.top]; }
    svg.addEventListener('mousedown', function(ev) {
      ev.preventDefault(); start = pos(ev); pts = [start]; if (shape) shape.remove();
      shape = mode === 'box' ? U.svg('rect', {fill: 'rgba(224,138,0,0.15)', stroke: '#e08a00', 'pointer-events': 'none'}, svg)
                             : U.svg('polygon', {fill: 'rgba(224,138,0,0.15)', stroke: '#e08a00', 'pointer-events': 'none'}, svg);
    });
    svg.addEventListener('mousemove', function(ev) {
      if (!start) return; var p = pos(ev);
      if (mode === 'box') { shape.setAttribute('x', Math.min(p[0], start[0])); shape.setAttribute('y', Math.min(p[1], start[1]));
        shape.setAttribute('width', Math.abs(p[0] - start[0])); shape.setAttribute('height', Math.abs(p[1] - start[1])); }
      else { pts.push(p); shape.setAttribute('points', pts.map(function(q) { return q.join(','); }).join(' ')); }
    });
    function finish(ev) {
      if (!start) return; var p = pos(ev), s = [];
      if (mode === 'box') {
        var x0 = Math.min(ix(start[0]), ix(p[0])), x1 = Math.max(ix(start[0]), ix(p[0]));
        var y0 = Math.min(iy(start[1]), iy(p[1])), y1 = Math.max(iy(start[1]), iy(p[1]));
        for (var i = 0; i < n; i++) if (D.x[i][j] !== null && D.x[i][j] >= x0 && D.x[i][j] <= x1 && D.y[i][j] >= y0 && D.y[i][j] <= y1) s.push(i);
        root.setAttribute('data-brush', JSON.stringify([pi, x0, x1, y0, y1]));
      } else {
        pts.push(p);
        for (var i = 0; i < n; i++) { if (D.x[i][j] === null) continue; var px = sx(D.x[i][j]), py = sy(D.y[i][j]), inside = false;
          for (var a = 0, b = pts.length - 1; a < pts.length; b = a++) {
            if ((pts[a][1] > py) !== (pts[b][1] > py) && px < (pts[b][0] - pts[a][0]) * (py - pts[a][1]) / (pts[b][1] - pts[a][1]) + pts[a][0]) inside = !inside; }
          if (inside) s.push(i); }
        root.setAttribute('data-brush', JSON.stringify([pi, 'lasso']));
      }
      start = null; sel = s; paint();
    }
    svg.addEventListener('mouseup', finish); svg.addEventListener('mouseleave', finish);
    panels.push({j: j, dots: dots, mean: mean, clear: function() { if (shape) { shape.remove(); shape = null; } }});
  });
  function paint() {
    var c = +colS.value, on = {};
    (sel || []).forEach(function(i) { on[i] = 1; });
    panels.forEach(function(pn) {
      var m = 0;
      pn.dots.forEach(function(d, i) {
        var base = c ? D.colors[c - 1][i] : '#1f77b4', s = !sel || on[i];
        d.setAttribute('fill', s ? base : '#d0d0d0'); d.setAttribute('fill-opacity', s ? 0.85 : 0.35);
        d.setAttribute('class', sel && on[i] ? 'sel' : '');
        if (sel && on[i]) { d.setAttribute('stroke', '#000'); d.setAttribute('stroke-width', 0.6); d.parentNode.appendChild(d); }
        else d.removeAttribute('stroke');
      });
      if (sel && sel.length) { sel.forEach(function(i) { m += D.y[i][pn.j]; }); m /= sel.length;
        pn.mean.textContent = 'selected: mean contribution ' + U.s(m); pn.mean.setAttribute('data-value', m); }
      else { pn.mean.textContent = '\u00a0'; pn.mean.removeAttribute('data-value'); }
    });
    root.setAttribute('data-selection', JSON.stringify(sel || []));
    root.setAttribute('data-color', c ? D.features[c - 1] : '');
    status.textContent = sel ? sel.length + ' rows selected' : 'no selection';
  }
  colS.addEventListener('change', paint);
  rb.addEventListener('change', function() { mode = 'box'; }); rl.addEventListener('change', function() { mode = 'lasso'; });
  clr.addEventListener('click', function() { sel = null; panels.forEach(function(p) { p.clear(); }); root.removeAttribute('data-brush'); paint(); });
  paint();
}
