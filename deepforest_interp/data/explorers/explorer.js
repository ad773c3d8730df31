var U = {
  el: function(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var k in (attrs || {})) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  },
  svg: function(tag, attrs, parent, text) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (var k in (attrs || {})) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  },
  f: function(v, p) { if (v === null || v === undefined) return ''; var a = Math.abs(v); if (a < 1e-12) return '0';
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential((p || 4) - 1);
    return (+v.toPrecision(p || 4)).toString(); },
  s: function(v, p) { return (v >= 0 ? '+' : '\u2212') + U.f(Math.abs(v), p); },
  cls: function(v) { return v > 0 ? 'pos' : (v < 0 ? 'neg' : ''); },
  select: function(parent, label, options, role) {
    var l = U.el('label', {}, parent, label + ' ');
    var s = U.el('select', {'data-control': role}, l);
    options.forEach(function(o, i) { U.el('option', {value: i}, s, o); });
    return s;
  },
  range: function(parent, label, n, role) {
    var l = U.el('label', {}, parent, label + ' ');
    var s = U.el('input', {type: 'range', min: 0, max: Math.max(0, n - 1), value: 0, step: 1, 'data-control': role}, l);
    var out = U.el('span', {'data-role': role + '-value'}, l, '0');
    s.addEventListener('input', function() { out.textContent = s.value; });
    return s;
  },
  palette: ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22']
};
