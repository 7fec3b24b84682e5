// The comparison page's stylesheet and script, inlined into the file so it works offline. The
// script sorts and filters the matrix by the cells' data attributes (the class chips filter the heat
// map too), keeps the filters in the page's address (#class=silent&reinit=reject&finding=…) so a
// view can be linked, opens a finding when its number is clicked and highlights a finding's path on
// the statecharts; it never builds HTML from text.

export const HTML_STYLE = `
:root { --silent: #c62828; --loud: #a14400; --ok: #2e7d32; --fault: #ffe0b2; --muted: #666; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 1rem 3rem; color: #222; }
.ev { overflow-wrap: anywhere; }
code, td { overflow-wrap: break-word; }
main, section { min-width: 0; }
.scroll-x { overflow-x: auto; max-width: 100%; }
table.listed { display: block; overflow-x: auto; max-width: 100%; }
h1 { font-size: 1.5rem; margin: 1rem 0 .25rem; }
.meta { color: var(--muted); margin: 0 0 .5rem; }
.interrupted { background: #fff3cd; border: 1px solid #e0b400; padding: .5rem .75rem; font-weight: 600; }
.chip { border: 1px solid #bbb; border-radius: 1rem; background: #fafafa; padding: .15rem .7rem; cursor: pointer; font: inherit; }
.filters { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; margin: .5rem 0; background: white; padding: .4rem 0; }
/* The matrix scrolls in its own box, both ways: its header sticks to the box's top, where nothing covers it, and the page never scrolls sideways. */
.matrix-box { overflow: auto; max-width: 100%; max-height: calc(100vh - 2rem); border: 1px solid #ddd; }
.filters label { font-size: .85rem; color: #444; }
.count { margin-left: auto; color: var(--muted); }
table { border-collapse: collapse; }
#matrix th, #matrix td, table.listed th, table.listed td { border: 1px solid #ddd; padding: .2rem .45rem; }
#matrix th { background: #f3f3f3; cursor: pointer; position: sticky; top: 0; z-index: 1; white-space: nowrap; vertical-align: bottom; }
#matrix th.p { white-space: normal; max-width: 6.5rem; }
#matrix th[aria-sort="ascending"]::after { content: " ▲"; }
#matrix th[aria-sort="descending"]::after { content: " ▼"; }
#matrix td.v { text-align: center; white-space: nowrap; }
#matrix td.vholds { color: var(--ok); }
#matrix td.vviolated { background: #ffebee; color: var(--silent); font-weight: 600; }
#matrix td.vvacuous { color: var(--muted); font-style: italic; }
#matrix td.verror { background: #f3e5f5; color: #6a1b9a; font-weight: 600; }
#matrix { font-size: 13px; }
#matrix td:nth-child(2) { min-width: 12rem; overflow-wrap: anywhere; }
#matrix td.g { color: var(--muted); }
.chip.silent { border-color: var(--silent); color: var(--silent); }
.chip.loud-never-recovers { border-color: var(--loud); color: var(--loud); }
.chip.clean { border-color: var(--ok); color: var(--ok); }
.chip.policy-error { border-color: #6a1b9a; color: #6a1b9a; }
/* A pressed chip: white on its class's colour (each at least 4.5:1), whatever its class. */
.chip.chip[aria-pressed="true"] { background: #1565c0; color: white; border-color: #1565c0; }
.chip.chip.silent[aria-pressed="true"] { background: var(--silent); border-color: var(--silent); }
.chip.chip.loud-never-recovers[aria-pressed="true"] { background: var(--loud); border-color: var(--loud); }
.chip.chip.clean[aria-pressed="true"] { background: var(--ok); border-color: var(--ok); }
.chip.chip.policy-error[aria-pressed="true"] { background: #6a1b9a; border-color: #6a1b9a; }
#heat { font-size: 12px; }
#heat th, #heat td { border: 1px solid #e0e0e0; padding: 1px 4px; }
#heat th.fam { vertical-align: bottom; font-weight: 600; }
#heat th.fam span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; }
#heat td { overflow-wrap: normal; }
#heat td.n { white-space: nowrap; max-width: 14rem; overflow: hidden; text-overflow: ellipsis; }
#heat td.c { white-space: nowrap; }
.h { text-align: center; min-width: 1.6rem; display: table-cell; }
span.h { display: inline-block; border: 1px solid #ccc; padding: 0 4px; }
.h.silent { background: var(--silent); color: white; font-weight: 700; }
.h.loud-never-recovers { background: var(--loud); color: white; font-weight: 700; }
.h.policy-error { background: #6a1b9a; color: white; font-weight: 700; }
.h.broken-without-faults { background: #424242; color: white; }
.h.no-finding { background: #e8f5e9; color: #1b5e20; }
.h.never-acted { background: #f5f5f5; color: #555; }
.h.not-in-this-cell { background: white; }
.unfixed { background: #fff3e0; border-left: 4px solid var(--loud); padding: .2rem .8rem; }
#recommendation h4 { margin: .6rem 0 .2rem; }
.tied { color: var(--muted); }
.legend .key { white-space: nowrap; margin-right: .6rem; }
#path-pick { max-width: 100%; }
svg.chart { max-width: 100%; height: auto; border: 1px solid #ddd; background: #fcfcfc; }
svg.chart .st rect { fill: #eef4fb; stroke: #1565c0; }
svg.chart .st.parent > rect { fill: none; stroke: #90a4ae; stroke-dasharray: 4 3; }
svg.chart text { font: 12px system-ui, sans-serif; fill: #222; }
svg.chart .tr path { fill: none; stroke: #78909c; stroke-width: 1.2; }
svg.chart .tr text { font-size: 10px; fill: #455a64; }
svg.chart .on rect { fill: #ffe0b2; stroke: #a14400; stroke-width: 2.5; }
svg.chart .tr.on path { stroke: #a14400; stroke-width: 3; }
svg.chart .tr.on text { fill: #a14400; font-weight: 700; }
#matrix tr:hover td { background: #f7fbff; }
td.c { min-width: 6.5rem; }
td.c.silent { color: var(--silent); font-weight: 600; }
td.c.clean { color: var(--ok); }
td.c.loud-never-recovers { color: var(--loud); font-weight: 600; }
td.c.policy-error { color: #6a1b9a; font-weight: 600; }
a.flink { font-weight: 600; }
details.finding { border: 1px solid #ddd; border-radius: 6px; margin: .6rem 0; padding: .3rem .8rem; }
details.finding[open] { border-color: #1565c0; box-shadow: 0 0 0 2px #e3f2fd; }
details.finding > summary { cursor: pointer; font-weight: 600; }
.facts { padding-left: 1.2rem; }
.facts ol.plan { margin: .1rem 0; }
.silent-empty, .silent-hang { color: var(--silent); font-weight: 600; }
.error { color: var(--loud); }
.timeline { display: grid; grid-template-columns: 4.5rem 7rem repeat(3, minmax(8rem, 1fr)); gap: 2px 6px; font-size: 12px; margin: .4rem 0 .8rem; }
.timeline .th { font-weight: 700; border-bottom: 2px solid #999; grid-row: 1; }
.timeline .t { grid-column: 1; color: var(--muted); text-align: right; }
.timeline .ev { border-radius: 3px; padding: 1px 5px; background: #f1f3f5; overflow-wrap: anywhere; }
.timeline .ev.fault { background: var(--fault); border-left: 4px solid #e65100; }
.timeline .ev.error { background: #ffe9d6; }
.timeline .ev.silent { background: #ffcdd2; }
.timeline .ev.ok { background: #dcedc8; }
.timeline .ev.duplicate { background: #ffcdd2; }
.timeline .ev.marked { outline: 3px solid #1565c0; background: #e3f2fd; }
.timeline .here { color: #1565c0; }
.timeline .gap { display: block; color: #1565c0; font-weight: 600; }
td.m.clean { color: var(--ok); font-weight: 600; }
td.m.loud-recovers { color: var(--loud); }
td.m.loud-never-recovers { color: var(--silent); }
td.fl { max-width: 28rem; }
.timeline .call { border-radius: 4px; padding: 2px 5px; color: white; background: #607d8b; font-weight: 600; z-index: 1; }
.timeline .call.ok { background: var(--ok); }
.timeline .call.error { background: var(--loud); }
.timeline .call.silent { background: var(--silent); }
.timeline .call.duplicate { background: var(--silent); outline: 2px dashed #222; }
.duplicate { color: var(--silent); font-weight: 600; }
pre { background: #f8f8f8; padding: .5rem; overflow-x: auto; font-size: 12px; }
`;

export const HTML_SCRIPT = `
(function () {
  'use strict';
  var table = document.getElementById('matrix');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var heat = document.getElementById('heat');
  var heatRows = heat ? Array.prototype.slice.call(heat.tBodies[0].rows) : [];
  var filters = Array.prototype.slice.call(document.querySelectorAll('[data-filter]'));
  var chips = Array.prototype.slice.call(document.querySelectorAll('[data-class-chip]'));
  var shown = document.getElementById('shown');
  var classFilter = document.querySelector('[data-filter="class"]');
  var pathPick = document.getElementById('path-pick');

  function keyOf(td) {
    var s = td.getAttribute('data-sort');
    return s === null ? td.textContent.trim().toLowerCase() : s;
  }

  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.addEventListener('click', function () {
      var numeric = th.getAttribute('data-type') === 'num';
      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) { other.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      rows.sort(function (a, b) {
        var x = keyOf(a.cells[col]), y = keyOf(b.cells[col]);
        var d = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
        return d * dir || Number(a.cells[0].getAttribute('data-sort')) - Number(b.cells[0].getAttribute('data-sort'));
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });

  // The view as the page's address: each filter that is set, and the finding open or highlighted.
  var finding = '';
  function writeHash() {
    var parts = [];
    filters.forEach(function (f) {
      if (f.value.trim()) parts.push(encodeURIComponent(f.getAttribute('data-filter')) + '=' + encodeURIComponent(f.value.trim()));
    });
    if (finding) parts.push('finding=' + encodeURIComponent(finding));
    try { history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search); } catch (err) { /* a file: URL may refuse it */ }
  }
  function readHash() {
    var h = location.hash.slice(1);
    if (!h) return;
    if (h.indexOf('=') < 0) { finding = decodeURIComponent(h).replace(/^finding-/, ''); return; }
    h.split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      var key = decodeURIComponent(kv.slice(0, i)), value = decodeURIComponent(kv.slice(i + 1));
      if (key === 'finding') { finding = value; return; }
      filters.forEach(function (f) {
        if (f.getAttribute('data-filter') !== key) return;
        if (f.tagName === 'SELECT' && !Array.prototype.some.call(f.options, function (o) { return o.value === value; })) return;
        f.value = value;
      });
    });
  }

  function apply() {
    var n = 0;
    rows.forEach(function (row) {
      var keep = filters.every(function (f) {
        var want = f.value.trim().toLowerCase();
        if (!want) return true;
        var key = f.getAttribute('data-filter');
        if (key === 'text') return row.getAttribute('data-text').indexOf(want) >= 0;
        return (row.getAttribute('data-' + key) || '').toLowerCase() === want;
      });
      row.hidden = !keep;
      if (keep) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' cells';
    var cls = classFilter.value;
    heatRows.forEach(function (row) { row.hidden = cls !== '' && row.getAttribute('data-class') !== cls; });
    chips.forEach(function (c) { c.setAttribute('aria-pressed', String(c.getAttribute('data-class-chip') === cls)); });
  }
  filters.forEach(function (f) {
    f.addEventListener('input', function () { apply(); writeHash(); });
    f.addEventListener('change', function () { apply(); writeHash(); });
  });
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      var value = chip.getAttribute('data-class-chip');
      classFilter.value = classFilter.value === value ? '' : value;
      apply();
      writeHash();
    });
  });

  // A finding's path on the statecharts: the states it entered and the transitions it took.
  function highlight(id) {
    var marks = document.querySelectorAll('svg.chart .on');
    Array.prototype.forEach.call(marks, function (m) { m.classList.remove('on'); });
    var src = id && document.getElementById('path-' + id);
    if (pathPick) pathPick.value = src ? id : '';
    if (!src) return;
    src.getAttribute('data-path').split(' ').forEach(function (key) {
      if (!key) return;
      Array.prototype.forEach.call(document.querySelectorAll('svg.chart [data-key="' + key + '"]'), function (el) { el.classList.add('on'); });
    });
  }
  if (pathPick) pathPick.addEventListener('change', function () { finding = pathPick.value; highlight(finding); writeHash(); });

  function open(id) {
    var el = document.getElementById('finding-' + id);
    if (!el || el.tagName !== 'DETAILS') return;
    el.open = true;
    el.scrollIntoView({ block: 'start' });
  }
  document.addEventListener('click', function (e) {
    var p = e.target.closest && e.target.closest('a.pathlink');
    if (p) {
      e.preventDefault();
      finding = p.getAttribute('data-finding');
      writeHash();
      highlight(finding);
      document.getElementById('statecharts').scrollIntoView({ block: 'start' });
      return;
    }
    var a = e.target.closest && e.target.closest('a.flink');
    if (!a) return;
    e.preventDefault();
    finding = a.getAttribute('href').slice(1).replace(/^finding-/, '');
    writeHash();
    highlight(finding);
    open(finding);
  });
  readHash();
  apply();
  if (finding) { highlight(finding); open(finding); }
})();
`;
