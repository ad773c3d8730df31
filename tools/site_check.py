"""`make site-check`: open every page of the built course (_site/) in headless Chromium and fail unless, on every page,

* the math is rendered: every MathJax element was typeset, no MathJax error, and no raw `\\tag{` or `$$` is left in
  the visible text (code blocks excepted);
* every image loads (naturalWidth > 0);
* exercise solutions (code cells starting with `# Solution`) are folded in a closed <details>;
* every internal link resolves (the target file exists and, for `#fragment`, the target page has that id);
* nothing is fetched from outside the site (any other origin is blocked and reported) and no local file is missing;
* every interactive explorer (`[data-explorer]`, issue 19) runs without a kernel: one interaction per explorer (a row
  slider and a tree, a layer and "to the leaf", a brushed box) and the numbers it then shows must equal the numbers
  precomputed from the model and stored in its JSON data (the model's output, Algorithm 1's table, the brushed rows);
  each of the three kinds must be on the site, and a screenshot of each goes to _site/_screens/explorer-<kind>.png.

The site is served on 127.0.0.1 by a throw-away http.server (file:// would block MathJax's web fonts). Chromium is
Debian's /usr/bin/chromium (override with CHROMIUM=...), driven through Python playwright. Screenshots of five pages
(home, equations, a figure, the derivation index, an experiment) and of lesson 02c's three plots (waterfall, summary,
dependence) go to _site/_screens/.
"""

import functools, http.server, os, re, socketserver, sys, tempfile, threading, time
from pathlib import Path
from urllib.parse import urlsplit, unquote

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / '_site'
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
FLAGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
]
# (page, what to scroll to (None: the top), which match, the screenshot's name)
SCREENS = [
    ('index.html', None, 0, 'index.png'),
    ('06_calibration.html', 'div.math', 0, '06_calibration.png'),
    ('08_forest_floor.html', '.cell_output img', 0, '08_forest_floor.png'),
    ('derivations.html', 'table', 0, 'derivations.png'),
    (
        '10_experiments_deep_forest.html',
        '.cell_output img',
        0,
        '10_experiments_deep_forest.png',
    ),
    # the plots a shap user reaches for, as the course shows them (lesson 02c)
    ('02c_explanation_plots.html', '.cell_output img', 0, '02c_waterfall.png'),
    ('02c_explanation_plots.html', '.cell_output img', 1, '02c_summary.png'),
    ('02c_explanation_plots.html', '.cell_output img', 2, '02c_dependence.png'),
]

PAGE_JS = r"""
async () => {
  const out = {math: 0, mathBad: [], mjErrors: 0, raw: [], rawMd: [], imgs: 0, imgBad: [], links: []};
  if (window.MathJax && MathJax.Hub) {
    await new Promise(r => MathJax.Hub.Queue(() => r(true)));
  }
  for (const el of document.querySelectorAll('span.math.notranslate, div.math.notranslate')) {
    out.math += 1;
    if (!el.querySelector('.MathJax, .MathJax_Display, .MathJax_CHTML, .MathJax_SVG'))
      out.mathBad.push(el.textContent.trim().slice(0, 80).replace(/[\ud800-\udfff]/g, '?'));
  }
  out.mjErrors = document.querySelectorAll('.MathJax_Error, merror, .merror').length;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest('pre, code, script, style, .MathJax_Preview, .highlight')) continue;
    if (!p.checkVisibility()) continue;
    const t = n.textContent;
    if (t.includes('\\tag{') || t.includes('$$')) out.raw.push(t.trim().slice(0, 100));
  }
  for (const pre of document.querySelectorAll('.cell_output pre')) {     // markdown printed instead of displayed
    const t = pre.textContent;
    if (/\|\s*:?-{3,}:?\s*\|/.test(t) || /(^|\n)#{2,4} \S/.test(t)) out.rawMd.push(t.trim().slice(0, 100));
  }
  for (const img of document.images) {
    img.loading = 'eager';
    if (!img.complete) await new Promise(r => { img.onload = img.onerror = r; setTimeout(r, 5000); });
    out.imgs += 1;
    if (!(img.naturalWidth > 0)) out.imgBad.push(img.getAttribute('src').slice(0, 80));
  }
  out.solutions = 0; out.openSolutions = 0;
  for (const pre of document.querySelectorAll('.cell_input pre')) {
    if (!pre.textContent.startsWith('# Solution')) continue;
    out.solutions += 1;
    const d = pre.closest('details');
    if (!d || d.open) out.openSolutions += 1;
  }
  out.folded = 0; out.openFolded = 0;          // implementation toggles ("Show imports", "Show implementation" ...)
  for (const d of document.querySelectorAll('details')) {
    const s = d.querySelector('summary');
    if (!s || !/^\s*Show (imports|implementation|the implementation|compiled kernel|report code)/.test(s.textContent)) continue;
    out.folded += 1; if (d.open) out.openFolded += 1;
  }
  for (const a of document.querySelectorAll('a[href]')) out.links.push(a.href);
  return out;
}
"""


EXPLORER_KINDS = ('tree-path', 'deep-forest', 'forest-floor')
_DATA_JS = "el => JSON.parse(el.querySelector('script.dfx-data').textContent)"
_SET_RANGE_JS = """([el, role, v]) => { const s = el.querySelector(`input[data-control=${role}]`);
  s.value = v; s.dispatchEvent(new Event('input', {bubbles: true})); return +s.value; }"""


def _close(a, b, rel=1e-9) -> bool:
    return abs(float(a) - float(b)) <= rel * max(1.0, abs(float(b)))


def _check_tree_path(page, ex, D) -> list:
    "Move the row slider and pick the last tree: the running sum must end at that tree's predict, the forest table at the model output."
    probs, r, t = [], min(7, len(D['rows']) - 1), len(D['trees']) - 1
    before = ex.locator('[data-role=forest-output]').get_attribute('data-value')
    page.evaluate(_SET_RANGE_JS, [ex.element_handle(), 'row', r])
    ex.locator('select[data-control=tree]').select_option(str(t))
    if ex.get_attribute('data-row') != str(r) or ex.get_attribute('data-tree') != str(
        t
    ):
        return [f'tree-path: the view did not move to row {r}, tree {t}']
    end = ex.locator('[data-role=path-end]').get_attribute('data-value')
    out = ex.locator('[data-role=forest-output]').get_attribute('data-value')
    want = D['rows'][r]['expected']
    if not _close(end, want['tree'][t]):
        probs.append(
            f'tree-path: running sum ends at {end}, the tree predicts {want["tree"][t]}'
        )
    if not _close(out, want['output']):
        probs.append(
            f'tree-path: bias + contributions = {out}, the model outputs {want["output"]}'
        )
    if (
        r
        and _close(before, out, 1e-15)
        and not _close(D['rows'][0]['expected']['output'], want['output'], 1e-15)
    ):
        probs.append('tree-path: the forest output shown did not change with the row')
    return probs


def _check_deep_forest(page, ex, D) -> list:
    "Pick the last layer and a row, press 'to the leaf': the walked table must be Algorithm 1's, the layer's sum its output."
    import json

    probs, l, r = [], len(D['layers']) - 1, min(3, len(D['rows']) - 1)
    ex.locator('select[data-control=layer]').select_option(str(l))
    page.evaluate(_SET_RANGE_JS, [ex.element_handle(), 'row', r])
    ex.locator('button[data-control=next]').click()
    if ex.get_attribute('data-step') != '1':
        probs.append('deep-forest: "next" did not advance to step 1')
    ex.locator('button[data-control=end]').click()
    R = D['rows'][r]['layers'][l]
    if ex.get_attribute('data-step') != str(len(R['paths'][0]) - 1):
        probs.append('deep-forest: "to the leaf" did not reach the leaf')
    got = json.loads(
        ex.locator('[data-role=tree-table-end]').get_attribute('data-values')
    )
    want = R['expected']['table'][0]
    if len(got) != len(want) or not all(_close(a, b) for a, b in zip(got, want)):
        probs.append(
            f"deep-forest: the walked table {got} differs from Algorithm 1's {want}"
        )
    out = ex.locator('[data-role=layer-output]').get_attribute('data-value')
    if not _close(out, R['expected']['output']):
        probs.append(
            f'deep-forest: layer sum {out} != layer output {R["expected"]["output"]}'
        )
    return probs


def _check_forest_floor(page, ex, D) -> list:
    "Brush a box in the second panel with the mouse: the rows inside must light up in every panel, with their mean contributions."
    import json

    probs, pi = [], min(1, len(D['panels']) - 1)
    svg = ex.locator('[data-role=panel-svg]').nth(pi)
    svg.evaluate(
        "el => el.scrollIntoView({block: 'center'})"
    )  # mouse events need the panel on screen
    box = svg.bounding_box()
    page.mouse.move(box['x'] + 0.3 * box['width'], box['y'] + 0.05 * box['height'])
    page.mouse.down()
    page.mouse.move(
        box['x'] + 0.7 * box['width'], box['y'] + 0.3 * box['height'], steps=4
    )
    page.mouse.move(
        box['x'] + 0.97 * box['width'], box['y'] + 0.6 * box['height'], steps=4
    )
    page.mouse.up()
    brush = ex.get_attribute('data-brush')
    if not brush:
        return ['forest-floor: brushing drew no selection']
    p, x0, x1, y0, y1 = json.loads(brush)
    j = D['panels'][p]
    want = [
        i
        for i, (x, y) in enumerate(zip(D['x'], D['y']))
        if x0 <= x[j] <= x1 and y0 <= y[j] <= y1
    ]
    got = json.loads(ex.get_attribute('data-selection'))
    if not want:
        probs.append(
            'forest-floor: the brushed box holds no point (the check brushed an empty corner)'
        )
    if got != want:
        probs.append(
            f'forest-floor: {len(got)} rows selected, {len(want)} inside the brushed box'
        )
    for q, jj in enumerate(D['panels']):
        n_lit = ex.locator('[data-role=panel-svg]').nth(q).locator('circle.sel').count()
        if n_lit != len(want):
            probs.append(
                f'forest-floor: panel {q} lights up {n_lit} points, not {len(want)}'
            )
        m = ex.locator('[data-role=sel-mean]').nth(q).get_attribute('data-value')
        if want and (
            m is None or not _close(m, sum(D['y'][i][jj] for i in want) / len(want))
        ):
            probs.append(
                f'forest-floor: panel {q} shows mean contribution {m} of the selection'
            )
    f = len(D['features']) - 1
    ex.locator('select[data-control=color]').select_option(str(f + 1))
    fill = (
        ex.locator('[data-role=panel-svg]')
        .first.locator('circle[data-i="0"]')
        .get_attribute('fill')
    )
    if fill != D['colors'][f][0]:
        probs.append(
            f'forest-floor: colour by {D["features"][f]} shows {fill}, not {D["colors"][f][0]}'
        )
    return probs


def check_explorers(page, page_name: str, seen: dict) -> list:
    "Drive every explorer of the page once (see the module docstring); screenshots of the first of each kind."
    probs = []
    for k in range(page.locator('div.dfx[data-explorer]').count()):
        ex = page.locator('div.dfx[data-explorer]').nth(k)
        kind = ex.get_attribute('data-explorer')
        try:
            page.wait_for_function(
                'el => el.getAttribute("data-ready") === "1"',
                arg=ex.element_handle(),
                timeout=10000,
            )
        except Exception:
            probs.append(
                f'{page_name}: explorer {kind} never started (its script did not run)'
            )
            continue
        D = ex.evaluate(_DATA_JS)
        check = {
            'tree-path': _check_tree_path,
            'deep-forest': _check_deep_forest,
            'forest-floor': _check_forest_floor,
        }.get(kind)
        if check is None:
            probs.append(f'{page_name}: unknown explorer kind {kind!r}')
            continue
        probs += [f'{page_name}: {m}' for m in check(page, ex, D)]
        if ex.locator('.bad').count():
            probs.append(f'{page_name}: explorer {kind} shows a failed identity (.bad)')
        if (
            kind not in seen
        ):  # a viewport taller than the explorer: the theme's sticky header stays off it
            vp = page.viewport_size
            h = ex.bounding_box()['height']
            page.set_viewport_size(
                {'width': vp['width'], 'height': int(min(5000, h + 200))}
            )
            page.evaluate('document.activeElement && document.activeElement.blur()')
            ex.evaluate("el => { el.scrollIntoView({block: 'center'}); }")
            ex.screenshot(path=str(SITE / '_screens' / f'explorer-{kind}.png'))
            page.set_viewport_size(vp)
        seen[kind] = seen.get(kind, 0) + 1
    return probs


class _Quiet(http.server.SimpleHTTPRequestHandler):
    missing = []  # paths a page asked for that the site lacks (fonts, scripts, images ...)

    def log_message(self, *a):
        pass

    def send_error(self, code, message=None, explain=None):
        if code == 404 and 'favicon' not in self.path:
            _Quiet.missing.append(unquote(urlsplit(self.path).path))
        try:
            super().send_error(code, message, explain)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed first: recorded above


def serve(root: Path):
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = socketserver.ThreadingTCPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f'http://127.0.0.1:{httpd.server_address[1]}'


@functools.lru_cache(None)
def _ids(path: Path) -> frozenset:
    return frozenset(re.findall(r'\bid="([^"]+)"', path.read_text(errors='replace')))


def _resolve(url: str, base: str):
    "Problem with an internal link, or None (external links and the site's own origin are told apart by `base`)."
    if not url.startswith(base):
        return None
    parts = urlsplit(url)
    path = SITE / unquote(parts.path).lstrip('/')
    if path.is_dir():
        path = path / 'index.html'
    if not path.exists():
        return f'missing target {parts.path}'
    if (
        parts.fragment
        and path.suffix == '.html'
        and unquote(parts.fragment) not in _ids(path)
    ):
        return f'no id "{parts.fragment}" in {path.name}'
    return None


WIDTH_JS = """() => {
  const art = document.querySelector('.bd-article') || document.body;
  const W = art.getBoundingClientRect().width;
  const boxed = (e) => { for (let p = e.parentElement; p && p !== art; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && p.getBoundingClientRect().width <= W + 1) return true; }
    return false; };
  const scrolls = (e) => { const s = getComputedStyle(e); return s.overflowX === 'auto' || s.overflowX === 'scroll'; };
  return {
    code: [...document.querySelectorAll('div.highlight pre')].filter(e => e.scrollWidth > e.clientWidth + 1)
      .map(e => e.textContent.split('\\n').sort((a, b) => b.length - a.length)[0].slice(0, 60)),
    tables: [...document.querySelectorAll('table')].filter(e => e.getBoundingClientRect().width > W + 1
      && !scrolls(e) && !boxed(e)).length,
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    // the claims table opens the page: it comes before the first section heading
    summary: (() => { const t = document.querySelector('div.claims-summary table'); if (!t) return false;
      const h2 = document.querySelector('.bd-article h2');
      return !h2 || !!(t.compareDocumentPosition(h2) & Node.DOCUMENT_POSITION_FOLLOWING); })(),
    title: (document.querySelector('h1') || {textContent: ''}).textContent,
    // code shown (not folded) before the page's first section: a concept page should open with its idea
    codeFirst: (() => { const h2 = document.querySelector('.bd-article h2'); if (!h2) return 0;
      return [...document.querySelectorAll('div.cell:not(.tag_hide-input):not(.tag_remove-input):not(.tag_hide-cell) div.cell_input')]
        .filter(e => e.compareDocumentPosition(h2) & Node.DOCUMENT_POSITION_FOLLOWING).length; })(),
  };
}"""


def _writes_claims(page_name: str) -> bool:
    "Whether the experiment notebook behind a page has claims rows (the site builder puts them at the top)."
    import json

    sys.path.insert(0, str(ROOT / 'tools'))
    from build_site import claims_summary

    nb = ROOT / 'nbs' / page_name.replace('.html', '.ipynb')
    return nb.exists() and bool(claims_summary(json.loads(nb.read_text())))


def check_widths(page, page_name: str) -> list:
    """Every code line fits its column (wrapped: no code block scrolls), every table fits or scrolls inside its own
    box, the page never scrolls sideways; an experiment page opens with its claims table; numbered pages show their
    number in the title."""
    r, out = page.evaluate(WIDTH_JS), []
    out += [f'{page_name}: a code line wider than the column: {c!r}' for c in r['code']]
    if r['tables']:
        out.append(
            f'{page_name}: {r["tables"]} table(s) wider than the column, not in a scroll box'
        )
    if r['sideways']:
        out.append(f'{page_name}: the page scrolls sideways')
    if (
        re.match(r'1\d_experiments_', page_name)
        and _writes_claims(page_name)
        and not r['summary']
    ):
        out.append(
            f'{page_name}: an experiment page without its claims table at the top'
        )
    if re.match(r'0[1-9]', page_name) and r['codeFirst']:
        out.append(
            f'{page_name}: {r["codeFirst"]} code cell(s) shown before the first section (fold the plumbing)'
        )
    num = re.match(r'(\d\d[a-z]?)_', page_name)
    if num and not r['title'].strip().startswith(num.group(1) + ' · '):
        out.append(
            f'{page_name}: title {r["title"][:40]!r} does not start with its number {num.group(1)}'
        )
    return out


def main() -> int:
    if not (SITE / 'index.html').exists():
        print(f'site-check: {SITE}/index.html not found: run `make site` first')
        return 1
    if not Path(CHROMIUM).exists():
        print(
            f"site-check: {CHROMIUM} not found: `make browser` installs Debian's chromium (root), or set CHROMIUM=..."
        )
        return 1
    from playwright.sync_api import sync_playwright

    pages = sorted(p.relative_to(SITE).as_posix() for p in SITE.glob('*.html'))
    if 'results.html' not in pages:
        print('site-check: results.html (the claims table) is not on the site')
        return 1
    httpd, base = serve(SITE)
    problems, stats, t0 = (
        [],
        {'pages': 0, 'math': 0, 'imgs': 0, 'links': 0},
        time.time(),
    )
    explorers = {}  # kind -> how many were driven
    (SITE / '_screens').mkdir(exist_ok=True)
    try:
        with (
            tempfile.TemporaryDirectory(prefix='site_check_profile_') as prof,
            sync_playwright() as pw,
        ):
            ctx = pw.chromium.launch_persistent_context(
                prof,
                executable_path=CHROMIUM,
                headless=True,
                args=FLAGS,
                viewport={'width': 1280, 'height': 900},
            )
            for page_name in pages:
                page = ctx.new_page()
                failed = []
                page.route(
                    '**/*',
                    lambda route: (
                        route.continue_()
                        if route.request.url.startswith(base)
                        or route.request.url.startswith('data:')
                        else (
                            failed.append(
                                'external request ' + route.request.url[:100]
                            ),
                            route.abort(),
                        )
                    ),
                )
                page.on(
                    'response',
                    lambda r: (
                        r.status >= 400
                        and failed.append(f'HTTP {r.status} {r.url[len(base) :]}')
                    ),
                )
                page.goto(f'{base}/{page_name}', wait_until='load')
                res = page.evaluate(PAGE_JS)
                stats['pages'] += 1
                stats['math'] += res['math']
                stats['imgs'] += res['imgs']
                where = page_name
                for m in res['mathBad']:
                    problems.append(f'{where}: math not typeset: {m}')
                stats['solutions'] = stats.get('solutions', 0) + res['solutions']
                if res['openSolutions']:
                    problems.append(
                        f'{where}: {res["openSolutions"]} exercise solution(s) not folded'
                    )
                stats['folded'] = stats.get('folded', 0) + res['folded']
                if res['openFolded']:
                    problems.append(
                        f'{where}: {res["openFolded"]} implementation toggle(s) open'
                    )
                if re.match(r'0[2-9]', page_name) and not res['folded']:
                    problems.append(
                        f'{where}: a concept page without folded implementation code'
                    )
                if res['mjErrors']:
                    problems.append(f'{where}: {res["mjErrors"]} MathJax error(s)')
                for t in res['raw']:
                    problems.append(f'{where}: raw TeX in the visible text: {t!r}')
                for t in res['rawMd']:
                    problems.append(
                        f'{where}: markdown printed as text (a table or heading): {t!r}'
                    )
                if re.match(r'1\d_experiments_', page_name) and not res['imgs']:
                    problems.append(
                        f'{where}: an experiment page without a figure (store the executed notebook: make reproduce)'
                    )
                for s in res['imgBad']:
                    problems.append(f'{where}: image does not load: {s}')
                for href in sorted(set(res['links'])):
                    stats['links'] += 1
                    err = _resolve(href, base)
                    if err:
                        problems.append(f'{where}: link {href[len(base) :]}: {err}')
                problems += check_explorers(page, page_name, explorers)
                problems += check_widths(page, page_name)
                problems += [f'{where}: {f}' for f in failed if 'favicon' not in f]
                for name, sel, k, shot in SCREENS:
                    if name == page_name:
                        if sel and page.locator(sel).count() > k:
                            page.locator(sel).nth(k).scroll_into_view_if_needed()
                            page.evaluate('window.scrollBy(0, -250)')
                        page.screenshot(path=str(SITE / '_screens' / shot))
                page.close()
            ctx.close()
    finally:
        httpd.shutdown()
    problems += [
        f'a page requested a file the site lacks: {p}'
        for p in sorted(set(_Quiet.missing))
    ]
    problems += [
        f'no {k} explorer on the site (its notebook cell has no stored output?)'
        for k in EXPLORER_KINDS
        if k not in explorers
    ]
    print(
        f'site-check: {stats["pages"]} pages, {stats["math"]} math elements, {stats["imgs"]} images, '
        f'{stats.get("solutions", 0)} folded solutions, {stats.get("folded", 0)} folded implementation cells, '
        f'{stats["links"]} distinct links per page, {sum(explorers.values())} explorers driven, checked in {time.time() - t0:.0f} s; '
        f'screenshots in {(SITE / "_screens").relative_to(ROOT) if SITE.is_relative_to(ROOT) else SITE / "_screens"}/'
    )
    if problems:
        print(f'site-check FAILED ({len(problems)} problems):')
        for p in problems[:200]:
            print('  -', p.encode('utf-8', 'replace').decode())
        return 1
    print('site-check OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
