/**
 * The style and the one classic script of the static archive (docs/archive.md#static-archive).
 * The script reads `window.FLAGWAVE_ARCHIVE` and builds the page with DOM calls and text nodes
 * only (never innerHTML with archived text), and draws the chart as SVG: no library, no module,
 * no network, so it runs from `file://` as well as from any host.
 */
export const SITE_STYLE = `
:root{color-scheme:light dark;--fg:#1a1b1e;--bg:#f8f9fa;--card:#fff;--muted:#6c757d;--line:#dee2e6;--accent:#228be6}
@media (prefers-color-scheme:dark){:root{--fg:#e9ecef;--bg:#1a1b1e;--card:#25262b;--muted:#909296;--line:#373a40}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans SC",sans-serif;color:var(--fg);background:var(--bg)}
header,nav,main,footer{max-width:1100px;margin:0 auto;padding:0 16px}header h1{margin:24px 0 4px}#period{color:var(--muted);margin:0}
nav{display:flex;gap:16px;padding:12px 16px;position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line)}a{color:var(--accent)}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px;margin:16px 0}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line)}td.num,th.num{text-align:right}
#chart svg{width:100%;height:auto;display:block}.legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.challenge{border-top:1px solid var(--line);padding:12px 0}.challenge h4{margin:0}.meta{color:var(--muted);font-size:13px}.content,.notice{white-space:pre-wrap;overflow-wrap:anywhere}
footer{color:var(--muted);font-size:13px;padding:16px}
`

export const SITE_SCRIPT = `
(function () {
  'use strict';
  var data = window.FLAGWAVE_ARCHIVE;
  var COLORS = ['#228be6', '#fa5252', '#40c057', '#fab005', '#7950f2', '#15aabf', '#fd7e14', '#e64980', '#82c91e', '#868e96'];
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) { node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    return node;
  }
  function when(iso) { return new Date(iso).toLocaleString(); }

  document.getElementById('period').textContent = when(data.start) + ' – ' + when(data.end);
  document.getElementById('summary').textContent = data.summary;
  document.getElementById('generated').textContent = when(data.generatedAt);

  var body = document.querySelector('#board tbody');
  data.board.items.forEach(function (team) {
    body.appendChild(el('tr', { 'data-team': String(team.id) }, [
      el('td', { 'class': 'num' }, [String(team.rank)]),
      el('td', {}, [team.name]),
      el('td', {}, [team.organization || '']),
      el('td', { 'class': 'num' }, [String(team.solvedCount)]),
      el('td', { 'class': 'num' }, [String(team.score)])
    ]));
  });
  if (data.board.items.length === 0) body.appendChild(el('tr', {}, [el('td', { colspan: '5' }, ['No team scored.'])]));

  var lines = (data.board.timeLines.all || []).slice(0, 10);
  var t0 = new Date(data.start).getTime(), t1 = Math.max(new Date(data.end).getTime(), t0 + 1);
  var max = 1;
  lines.forEach(function (l) { l.items.forEach(function (p) { max = Math.max(max, p.score); }); });
  var W = 1000, H = 320, P = 40;
  var chart = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'Score over time of the top teams' });
  chart.appendChild(svg('line', { x1: P, y1: H - P, x2: W - 10, y2: H - P, stroke: 'currentColor', 'stroke-opacity': '0.4' }));
  chart.appendChild(svg('line', { x1: P, y1: 10, x2: P, y2: H - P, stroke: 'currentColor', 'stroke-opacity': '0.4' }));
  var top = svg('text', { x: 4, y: 20, 'font-size': '12', fill: 'currentColor' }); top.textContent = String(max); chart.appendChild(top);
  function x(t) { return P + (Math.min(Math.max(t, t0), t1) - t0) / (t1 - t0) * (W - 10 - P); }
  function y(s) { return H - P - s / max * (H - P - 10); }
  var legend = el('div', { 'class': 'legend' });
  lines.forEach(function (l, i) {
    var pts = [[x(t0), y(0)]], last = 0;
    l.items.forEach(function (p) { var px = x(new Date(p.time).getTime()); pts.push([px, y(last)]); pts.push([px, y(p.score)]); last = p.score; });
    pts.push([x(t1), y(last)]);
    chart.appendChild(svg('polyline', { points: pts.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '), fill: 'none', stroke: COLORS[i % COLORS.length], 'stroke-width': '2', 'data-team': String(l.id) }));
    legend.appendChild(el('span', {}, [el('i', { style: 'background:' + COLORS[i % COLORS.length] }), l.name]));
  });
  document.getElementById('chart').appendChild(chart);
  document.getElementById('chart').appendChild(legend);

  var list = document.getElementById('challenge-list');
  if (!data.challenges) {
    document.getElementById('challenges').remove();
    document.getElementById('nav-challenges').remove();
  } else {
    data.challenges.forEach(function (c) {
      var meta = c.tag + ' · ' + c.score + ' pts · ' + c.solved + ' solve' + (c.solved === 1 ? '' : 's');
      var item = el('article', { 'class': 'challenge' }, [el('h4', {}, [c.title]), el('div', { 'class': 'meta' }, [meta])]);
      if (c.content) item.appendChild(el('div', { 'class': 'content' }, [c.content]));
      if (c.attachment) item.appendChild(el('p', {}, [el('a', { href: c.attachment.href, download: '' }, [c.attachment.name])]));
      list.appendChild(item);
    });
    if (data.challenges.length === 0) list.appendChild(el('p', {}, ['No challenges.']));
  }

  var notices = document.getElementById('notice-list');
  data.notices.forEach(function (n) {
    notices.appendChild(el('li', {}, [el('div', { 'class': 'meta' }, [when(n.time) + (n.type === 'Normal' ? '' : ' · ' + n.type)]), el('div', { 'class': 'notice' }, [n.content])]));
  });
  if (data.notices.length === 0) notices.appendChild(el('li', {}, ['No notices.']));
})();
`
