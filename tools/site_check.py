"""`make site-check`: open every page of the built course (_site/) in headless Chromium and fail unless, on every page,

* the math is rendered: every MathJax element was typeset, no MathJax error, and no raw `\\tag{` or `$$` is left in
  the visible text (code blocks excepted);
* every image loads (naturalWidth > 0);
* exercise solutions (code cells starting with `# Solution`) are folded in a closed <details>;
* every internal link resolves (the target file exists and, for `#fragment`, the target page has that id);
* nothing is fetched from outside the site (any other origin is blocked and reported) and no local file is missing.

The site is served on 127.0.0.1 by a throw-away http.server (file:// would block MathJax's web fonts). Chromium is
Debian's /usr/bin/chromium (override with CHROMIUM=...), driven through Python playwright. Screenshots of four pages
(home, equations, a figure, the derivation index) go to _site/_screens/.
"""
import functools, http.server, os, re, socketserver, sys, tempfile, threading, time
from pathlib import Path
from urllib.parse import urlsplit, unquote

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / '_site'
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync']
SCREENS = [('index.html', None), ('06_calibration.html', 'div.math'), ('08_forest_floor.html', '.cell_output img'),
           ('derivations.html', 'table'), ('10_experiments_deep_forest.html', '.cell_output img')]

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


class _Quiet(http.server.SimpleHTTPRequestHandler):
    missing = []                     # paths a page asked for that the site lacks (fonts, scripts, images ...)

    def log_message(self, *a): pass

    def send_error(self, code, message=None, explain=None):
        if code == 404 and 'favicon' not in self.path: _Quiet.missing.append(unquote(urlsplit(self.path).path))
        try: super().send_error(code, message, explain)
        except (BrokenPipeError, ConnectionResetError): pass    # the page was closed first: recorded above


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
    if not url.startswith(base): return None
    parts = urlsplit(url)
    path = SITE / unquote(parts.path).lstrip('/')
    if path.is_dir(): path = path / 'index.html'
    if not path.exists(): return f'missing target {parts.path}'
    if parts.fragment and path.suffix == '.html' and unquote(parts.fragment) not in _ids(path):
        return f'no id "{parts.fragment}" in {path.name}'
    return None


def main() -> int:
    if not (SITE / 'index.html').exists():
        print(f'site-check: {SITE}/index.html not found: run `make site` first'); return 1
    if not Path(CHROMIUM).exists():
        print(f'site-check: {CHROMIUM} not found: `apt-get install -y chromium` (make site-check does it as root)')
        return 1
    from playwright.sync_api import sync_playwright
    pages = sorted(p.relative_to(SITE).as_posix() for p in SITE.glob('*.html'))
    httpd, base = serve(SITE)
    problems, stats, t0 = [], {'pages': 0, 'math': 0, 'imgs': 0, 'links': 0}, time.time()
    (SITE / '_screens').mkdir(exist_ok=True)
    try:
        with tempfile.TemporaryDirectory(prefix='site_check_profile_') as prof, sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(prof, executable_path=CHROMIUM, headless=True,
                                                        args=FLAGS, viewport={'width': 1280, 'height': 900})
            for page_name in pages:
                page = ctx.new_page()
                failed = []
                page.route('**/*', lambda route: route.continue_() if route.request.url.startswith(base)
                           or route.request.url.startswith('data:') else (failed.append('external request ' +
                           route.request.url[:100]), route.abort()))
                page.on('response', lambda r: r.status >= 400 and failed.append(f'HTTP {r.status} {r.url[len(base):]}'))
                page.goto(f'{base}/{page_name}', wait_until='load')
                res = page.evaluate(PAGE_JS)
                stats['pages'] += 1; stats['math'] += res['math']; stats['imgs'] += res['imgs']
                where = page_name
                for m in res['mathBad']: problems.append(f'{where}: math not typeset: {m}')
                stats['solutions'] = stats.get('solutions', 0) + res['solutions']
                if res['openSolutions']: problems.append(f'{where}: {res["openSolutions"]} exercise solution(s) not folded')
                stats['folded'] = stats.get('folded', 0) + res['folded']
                if res['openFolded']: problems.append(f'{where}: {res["openFolded"]} implementation toggle(s) open')
                if re.match(r'0[2-9]', page_name) and not res['folded']:
                    problems.append(f'{where}: a concept page without folded implementation code')
                if res['mjErrors']: problems.append(f'{where}: {res["mjErrors"]} MathJax error(s)')
                for t in res['raw']: problems.append(f'{where}: raw TeX in the visible text: {t!r}')
                for t in res['rawMd']: problems.append(f'{where}: markdown printed as text (a table or heading): {t!r}')
                if re.match(r'1\d_experiments_', page_name) and not res['imgs']:
                    problems.append(f'{where}: an experiment page without a figure (store the executed notebook: make reproduce)')
                for s in res['imgBad']: problems.append(f'{where}: image does not load: {s}')
                for href in sorted(set(res['links'])):
                    stats['links'] += 1
                    err = _resolve(href, base)
                    if err: problems.append(f'{where}: link {href[len(base):]}: {err}')
                problems += [f'{where}: {f}' for f in failed if 'favicon' not in f]
                for name, sel in SCREENS:
                    if name == page_name:
                        if sel and page.locator(sel).count():
                            page.locator(sel).first.scroll_into_view_if_needed()
                            page.evaluate('window.scrollBy(0, -250)')
                        page.screenshot(path=str(SITE / '_screens' / name.replace('.html', '.png')))
                page.close()
            ctx.close()
    finally:
        httpd.shutdown()
    problems += [f'a page requested a file the site lacks: {p}' for p in sorted(set(_Quiet.missing))]
    print(f"site-check: {stats['pages']} pages, {stats['math']} math elements, {stats['imgs']} images, "
          f"{stats.get('solutions', 0)} folded solutions, {stats.get('folded', 0)} folded implementation cells, {stats['links']} distinct links per page checked in {time.time() - t0:.0f} s; "
          f"screenshots in {(SITE / '_screens').relative_to(ROOT) if SITE.is_relative_to(ROOT) else SITE / '_screens'}/")
    if problems:
        print(f'site-check FAILED ({len(problems)} problems):')
        for p in problems[:200]: print('  -', p.encode('utf-8', 'replace').decode())
        return 1
    print('site-check OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
