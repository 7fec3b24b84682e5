// The comparison page's stylesheet and script, inlined into the file so it works offline. The
// script sorts and filters the matrix by the cells' data attributes and opens a finding when its
// number is clicked; it never builds HTML from text.

export const HTML_STYLE = `
:root { --silent: #c62828; --loud: #ef6c00; --ok: #2e7d32; --fault: #ffe0b2; --muted: #666; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 1rem 3rem; color: #222; }
h1 { font-size: 1.5rem; margin: 1rem 0 .25rem; }
.meta { color: var(--muted); margin: 0 0 .5rem; }
.interrupted { background: #fff3cd; border: 1px solid #e0b400; padding: .5rem .75rem; font-weight: 600; }
.chip { border: 1px solid #bbb; border-radius: 1rem; background: #fafafa; padding: .15rem .7rem; cursor: pointer; font: inherit; }
.chip[aria-pressed="true"] { background: #1565c0; color: white; border-color: #1565c0; }
.filters { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; margin: .5rem 0; position: sticky; top: 0; background: white; padding: .4rem 0; z-index: 2; }
.filters label { font-size: .85rem; color: #444; }
.count { margin-left: auto; color: var(--muted); }
table { border-collapse: collapse; }
#matrix th, #matrix td, table.listed th, table.listed td { border: 1px solid #ddd; padding: .2rem .45rem; }
#matrix th { background: #f3f3f3; cursor: pointer; position: sticky; top: 2.6rem; white-space: nowrap; vertical-align: bottom; }
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
.timeline { display: grid; grid-template-columns: 4.5rem 7rem repeat(3, minmax(12rem, 1fr)); gap: 2px 6px; font-size: 12px; margin: .4rem 0 .8rem; }
.timeline .th { font-weight: 700; border-bottom: 2px solid #999; grid-row: 1; }
.timeline .t { grid-column: 1; color: var(--muted); text-align: right; }
.timeline .ev { border-radius: 3px; padding: 1px 5px; background: #f1f3f5; overflow-wrap: anywhere; }
.timeline .ev.fault { background: var(--fault); border-left: 4px solid #e65100; }
.timeline .ev.error { background: #ffe9d6; }
.timeline .ev.silent { background: #ffcdd2; }
.timeline .ev.ok { background: #dcedc8; }
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
pre { background: #f8f8f8; padding: .5rem; overflow-x: auto; font-size: 12px; }
`;

export const HTML_SCRIPT = `
(function () {
  'use strict';
  var table = document.getElementById('matrix');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filters = Array.prototype.slice.call(document.querySelectorAll('[data-filter]'));
  var chips = Array.prototype.slice.call(document.querySelectorAll('[data-class-chip]'));
  var shown = document.getElementById('shown');

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
    var cls = document.querySelector('[data-filter="class"]').value;
    chips.forEach(function (c) { c.setAttribute('aria-pressed', String(c.getAttribute('data-class-chip') === cls)); });
  }
  filters.forEach(function (f) { f.addEventListener('input', apply); f.addEventListener('change', apply); });
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      var select = document.querySelector('[data-filter="class"]');
      var value = chip.getAttribute('data-class-chip');
      select.value = select.value === value ? '' : value;
      apply();
    });
  });

  function open(id) {
    var el = document.getElementById(id);
    if (!el || el.tagName !== 'DETAILS') return;
    el.open = true;
    el.scrollIntoView({ block: 'start' });
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a.flink');
    if (!a) return;
    e.preventDefault();
    var id = a.getAttribute('href').slice(1);
    try { history.replaceState(null, '', '#' + id); } catch (err) { /* a file: URL may refuse it */ }
    open(id);
  });
  if (location.hash) open(decodeURIComponent(location.hash.slice(1)));
  apply();
})();
`;
