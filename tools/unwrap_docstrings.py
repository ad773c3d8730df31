"""Undo the string splitting of the old line wrapper in notebook code cells.

Usage: python tools/unwrap_docstrings.py [--check] [--no-history] [-v] nbs/*.ipynb

The former `tools/wrap_lines.py` (black's string processing at 88 columns) broke long one-line strings
into implicit concatenations of literals. This script joins them again, cell by cell, on whatever the
notebooks hold now (it keeps no list of places, so it can be re-run after a merge):

1. docstrings: a docstring (the first statement of a module, class or function body that is a string
   constant) written as an implicit concatenation `("part one " "part two")` becomes ONE literal with
   the same value; its parentheses go too.
2. other implicit concatenations that span lines (error messages, prints) become one literal when that
   literal, where its first piece starts, ends within JOIN_WIDTH = 100 columns: the wrapper split them
   at 88, often leaving a dangling piece of a few words (`" got" f" {key!r}"`); longer ones stay split,
   as ruff's own style has them. Redundant grouping parentheses around the pieces go too. f-string
   pieces and plain ones are joined into one f-string (braces of the plain pieces doubled).
3. with git history (default; `--no-history` turns it off): a triple-quoted multi-line docstring whose
   words are exactly the words of a one-line docstring that a notebook held in this repository's
   history is given that one-line form back (the wrapper split long one-line docstrings into a
   summary line and a wrapped paragraph). Only this step changes a docstring's value (whitespace only).
4. with git history: comment lines directly above a parameter of a function signature go back to the
   end of that line (a docments comment, which `show_doc` reads) if the history holds a line that
   starts with the same parameter and ends with a comment of the same words; the wrapper had moved overflowing docments comments above their line. Only plain parameter
   lines (`n: int = 10,`, `calibration: str = 'partial',`) get their comment back: ruff would split
   anything else (`x: A | None = None,`, brackets, `) -> T:`) to make room for a long comment.

Pieces separated by comments, triple-quoted pieces, bytes, and pieces mixing raw and non-raw prefixes
are left alone. Every changed cell is checked: `ast.dump(ast.parse(old)) == ast.dump(ast.parse(new))`
(step 3: equal after collapsing the whitespace of docstrings; step 4 moves comments only); an edit
that fails the check is dropped.
Cells that do not parse (IPython magics) are left as they are. Only the `source` of changed code
cells changes; each notebook is written back as nbdev writes it (sorted keys, indent 1, UTF-8), so
everything else stays byte-identical. A second run changes nothing. `--check` writes nothing and
exits 1 if a notebook would change. A summary per notebook is printed.
"""

import argparse, ast, io, json, re, subprocess, sys, tokenize
from collections import Counter
from pathlib import Path

# a joined literal may end up to 12 columns past the formatter's 88: one long line reads better than
# a line with a dangling piece of a few words; longer concatenations stay split
JOIN_WIDTH = 100
DEFS = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_PREFIX = re.compile(r'^([rRbBuUfF]*)(\'\'\'|"""|\'|")')
# keywords after which `(` opens a parenthesised expression, not a call
_KW = {
    'return',
    'in',
    'and',
    'or',
    'not',
    'if',
    'else',
    'elif',
    'yield',
    'assert',
    'raise',
    'await',
    'is',
    'lambda',
    'while',
    'for',
    'from',
    'with',
    'del',
}


# ----------------------------------------------------------------------------------------------------
# positions


class _Src:
    "A cell's source with ast (line, UTF-8 byte column) positions turned into string offsets."

    def __init__(self, src: str):
        self.src = src
        self.starts, pos = [], 0
        for line in src.split('\n'):
            self.starts.append(pos)
            pos += len(line) + 1
        self.lines = src.split('\n')

    def off(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(
            line.encode('utf-8')[:col].decode('utf-8', 'replace')
        )

    def node_span(self, node) -> tuple:
        return (
            self.off(node.lineno, node.col_offset),
            self.off(node.end_lineno, node.end_col_offset),
        )

    def tok_off(self, pos: tuple) -> int:
        "tokenize positions are (line, character column); past the last line: the end."
        if pos[0] > len(self.starts):
            return len(self.src)
        return min(self.starts[pos[0] - 1] + pos[1], len(self.src))


def _tokens(src: str) -> list:
    """Significant tokens (no NL/COMMENT/INDENT...) of `src` as (kind, text, start, end) with string
    offsets; an f-string (one STRING token before Python 3.12, FSTRING_START..FSTRING_END after) is
    one 'STRING' token. Comments are kept as kind 'COMMENT'."""
    s = _Src(src)
    out, depth, fstart = [], 0, None
    FS, FE = (
        getattr(tokenize, 'FSTRING_START', -1),
        getattr(tokenize, 'FSTRING_END', -1),
    )
    for t in tokenize.generate_tokens(io.StringIO(src).readline):
        a, b = s.tok_off(t.start), s.tok_off(t.end)
        if t.type == FS:
            if depth == 0:
                fstart = a
            depth += 1
            continue
        if t.type == FE:
            depth -= 1
            if depth == 0:
                out.append(('STRING', src[fstart:b], fstart, b))
            continue
        if depth:
            continue
        if t.type == tokenize.STRING:
            out.append(('STRING', t.string, a, b))
        elif t.type == tokenize.COMMENT:
            out.append(('COMMENT', t.string, a, b))
        elif t.type in (tokenize.OP, tokenize.NAME, tokenize.NUMBER):
            out.append((tokenize.tok_name[t.type], t.string, a, b))
    return out


# ----------------------------------------------------------------------------------------------------
# joining literals


def _split(piece: str) -> tuple:
    "(prefix lowercased, quote, body) of one string literal token."
    m = _PREFIX.match(piece)
    p, q = m.group(1), m.group(2)
    return p.lower(), q, piece[len(p) + len(q) : len(piece) - len(q)]


def join_pieces(pieces: list):
    """One literal token for the implicit concatenation `pieces` (literal tokens), or None if they
    cannot be joined faithfully by their text (the caller checks the value / syntax tree anyway)."""
    parts = [_split(p) for p in pieces]
    if any(len(q) == 3 or 'b' in p for p, q, _ in parts):
        return None
    if len({q for _, q, _ in parts}) != 1:
        return None
    if len({'r' in p for p, _, _ in parts}) != 1:
        return None
    q, raw = parts[0][1], 'r' in parts[0][0]
    is_f = any('f' in p for p, _, _ in parts)
    body = ''
    for p, _, b in parts:
        if is_f and 'f' not in p:
            b = b.replace('{', '{{').replace('}', '}}')
        body += b
    prefix = ('r' if raw else '') + ('f' if is_f else '')
    return prefix + q + body + q


def literal_for(value: str) -> str:
    "A one-line literal whose value is `value`: double quotes unless that needs more escapes."
    esc = {'\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t'}
    for q in ('"', "'"):
        body = ''.join(
            esc.get(
                c, ('\\' + q) if c == q else (c if c.isprintable() else repr(c)[1:-1])
            )
            for c in value
        )
        if q == '"' and '"' in value and "'" not in value:
            continue
        lit = q + body + q
        if ast.literal_eval(lit) == value:
            return lit
    return repr(value)


# ----------------------------------------------------------------------------------------------------
# finding what to change


def _is_doc(body: list) -> bool:
    return (
        bool(body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


def docstring_exprs(tree) -> list:
    return [
        n.body[0] for n in ast.walk(tree) if isinstance(n, DEFS) and _is_doc(n.body)
    ]


def _string_runs(toks: list) -> list:
    "(i, j): token index ranges of >= 2 adjacent string literals (comments between them allowed)."
    runs, i = [], 0
    while i < len(toks):
        if toks[i][0] != 'STRING':
            i += 1
            continue
        j = i
        while j + 1 < len(toks) and toks[j + 1][0] in ('STRING', 'COMMENT'):
            j += 1
        while toks[j][0] == 'COMMENT':
            j -= 1
        if sum(t[0] == 'STRING' for t in toks[i : j + 1]) >= 2:
            runs.append((i, j))
        i = j + 1
    return runs


def _grouping_parens(toks: list, i: int, j: int) -> bool:
    "Are toks[i-1] and toks[j+1] parentheses that only group the run (not a call, not a tuple)?"
    if i < 1 or j + 1 >= len(toks) or toks[i - 1][1] != '(' or toks[j + 1][1] != ')':
        return False
    if i < 2:
        return True
    before = toks[i - 2]
    if before[0] == 'NAME' and before[1] not in _KW:
        return False  # f(...) is a call
    if before[1] in (')', ']', '}') or before[0] == 'STRING':
        return False
    return True


def _column(src: str, a: int) -> int:
    "Column (in characters) of offset a."
    return a - (src.rfind('\n', 0, a) + 1)


def edits_for_cell(src: str, history: dict = None) -> tuple:
    """[(start, end, replacement, kind)] for one cell source (non-overlapping), and the parsed tree.
    kind: 'docstring' | 'concat' | 'history' | 'docments'."""
    tree = ast.parse(src)
    s = _Src(src)
    toks = _tokens(src)
    by_start = {t[2]: k for k, t in enumerate(toks)}
    docs = docstring_exprs(tree)
    doc_spans = {}
    for d in docs:
        a, b = s.node_span(d.value)
        doc_spans[a] = (d, s.node_span(d))
    edits = []
    for i, j in _string_runs(toks):
        run = toks[i : j + 1]
        if any(t[0] == 'COMMENT' for t in run):
            continue
        a, b = run[0][2], run[-1][3]
        if '\n' not in src[a:b]:
            continue  # one-line runs: written that way
        new = join_pieces([t[1] for t in run])
        if a in doc_spans:
            d, (sa, sb) = doc_spans[a]
            if new is None and not any('b' in _split(t[1])[0] for t in run):
                new = literal_for(d.value.value)
            # the whole statement (with its parentheses) becomes the literal
            if new is not None:
                edits.append((sa, sb, new, 'docstring'))
            continue
        if new is None:
            continue
        if _grouping_parens(toks, i, j):
            a2, b2 = toks[i - 1][2], toks[j + 1][3]
        else:
            a2, b2 = a, b
        tail = src[b2:].split('\n', 1)[0]
        # the joined literal where its first piece starts, with what follows it on that line
        if _column(src, a) + len(new) + len(tail.rstrip()) > JOIN_WIDTH:
            continue
        edits.append((a2, b2, new, 'concat'))
    if history:
        for d in docs:
            k = by_start.get(s.node_span(d.value)[0])
            v = d.value.value
            if (
                k is None
                or '\n' not in v
                or not toks[k][1].lstrip('rRuU').startswith(('"""', "'''"))
            ):
                continue
            if k + 1 < len(toks) and toks[k + 1][0] == 'STRING':
                continue  # a concatenation: step 1
            cands = history.get('docstrings', {}).get(' '.join(v.split()), {})
            if len(cands) != 1:
                continue  # none, or ambiguous
            ((orig, tok),) = cands.items()
            a, b = s.node_span(d)
            if not any(e[0] <= a < e[1] for e in edits):
                edits.append((a, b, tok, 'history'))
    if history and history.get('docments'):
        edits += _docment_edits(src, tree, s, history['docments'], edits)
    edits.sort()
    return edits, tree


_PLAIN_PARAM = re.compile(
    r'^\*{0,2}[A-Za-z_]\w*(\s*:\s*[A-Za-z_][\w.]*)?'
    r'(\s*=\s*(-?[\w.]+|\'[^\'#]*\'|"[^"#]*"))?,?$'
)


def _first_name(code: str) -> str:
    "The parameter a signature line starts with (`*args` -> args), or ')' for the return line."
    m = re.match(r'\s*(\))|\s*\**([A-Za-z_]\w*)', code)
    return (m.group(1) or m.group(2)) if m else ''


def _docment_edits(src: str, tree, s: '_Src', docments: dict, taken: list) -> list:
    """Comment lines directly above a parameter (or the `) -> T:` line) of a signature go back to the
    end of that line, if the history holds that line with this comment at its end."""
    out, lines = [], s.lines
    for d in ast.walk(tree):
        if not isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) or not d.body:
            continue
        last = d.body[0].lineno - 1  # signature lines: d.lineno .. last
        i = d.lineno + 1
        while i <= last:
            if not _is_comment_line(lines[i - 1]):
                i += 1
                continue
            j = i
            while j <= last and _is_comment_line(lines[j - 1]):
                j += 1
            # comment lines i..j-1, target line j
            # only a plain parameter line: ruff splits anything else (brackets, `A | None`, a return
            # annotation) to make room for a long comment
            if j <= last and _PLAIN_PARAM.match(lines[j - 1].strip()):
                text = ' '.join(l.strip()[1:].strip() for l in lines[i - 1 : j - 1])
                orig = docments.get((_first_name(lines[j - 1]), ' '.join(text.split())))
                a, b = s.starts[i - 1], s.starts[j - 1] + len(lines[j - 1])
                if orig and not any(e[0] < b and a < e[1] for e in taken):
                    out.append(
                        (a, b, lines[j - 1].rstrip() + '  # ' + orig, 'docments')
                    )
            i = j + 1
    return out


def _is_comment_line(line: str) -> bool:
    t = line.strip()
    return t.startswith('#') and not t.startswith('#|')


class _NormDoc(ast.NodeTransformer):
    "Docstrings with their whitespace collapsed (for the history step)."

    def _doc(self, node):
        self.generic_visit(node)
        if _is_doc(node.body):
            node.body[0].value.value = ' '.join(node.body[0].value.value.split())
        return node

    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _doc


def same_program(old: str, new: str, norm_docs: bool = False) -> bool:
    t1, t2 = ast.parse(old), ast.parse(new)
    if norm_docs:
        t1, t2 = _NormDoc().visit(t1), _NormDoc().visit(t2)
    return ast.dump(t1) == ast.dump(t2)


def _apply(src: str, edits: list) -> str:
    out, pos = [], 0
    for a, b, rep, _ in edits:
        out.append(src[pos:a])
        out.append(rep)
        pos = b
    return ''.join(out) + src[pos:]


def unwrap_cell(src: str, history: dict = None) -> tuple:
    "(new source, Counter of edits by kind, list of problems) for one code cell."
    try:
        edits, _ = edits_for_cell(src, history)
    except (SyntaxError, tokenize.TokenError, ValueError):
        return src, Counter(), []
    kept, probs = [], []
    # keep every edit that, applied with those kept so far, leaves the program the same
    for e in edits:
        trial = _apply(src, kept + [e])
        try:
            ok = same_program(_apply(src, kept), trial, norm_docs=(e[3] == 'history'))
        except SyntaxError:
            ok = False
        if ok:
            kept.append(e)
        else:
            probs.append(
                f'{e[3]} edit at offset {e[0]} dropped: {src[e[0] : e[1]][:60]!r}'
            )
    new = _apply(src, kept)
    if kept and not same_program(
        src, new, norm_docs=any(e[3] == 'history' for e in kept)
    ):
        return src, Counter(), ['cell left: combined edits changed the program']
    return new, Counter(e[3] for e in kept), probs


# ----------------------------------------------------------------------------------------------------
# history: one-line docstrings that notebooks held


def load_history(nbs_dir: Path) -> dict:
    """From every code line ever added to a notebook under `nbs_dir` (`git log -p`): 'docstrings':
    {docstring words joined by single spaces: {one-line value: its literal}} of one-line string literal
    statements; 'docments': {(first name on the line, comment words): comment} of lines ending in a
    comment."""
    try:
        r = subprocess.run(
            [
                'git',
                'log',
                '-p',
                '--no-color',
                '--no-ext-diff',
                '--format=',
                '--',
                '*.ipynb',
            ],
            cwd=nbs_dir,
            capture_output=True,
            text=True,
            errors='replace',
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return {}  # not a git checkout: steps 3 and 4 are skipped
    out, docments = {}, {}
    rx = re.compile(r'^\+\s*("(?:[^"\\]|\\.)*"),?\s*$')
    for line in r.stdout.split('\n'):
        m = rx.match(line)
        if not m:
            continue
        try:
            code = json.loads(m.group(1)).strip()
        except ValueError:
            continue
        k = _trailing_comment(code)
        if k is not None and code[:k].strip() and _first_name(code[:k]):
            key = (_first_name(code[:k]), ' '.join(code[k + 1 :].split()))
            docments.setdefault(key, set()).add(code[k + 1 :].strip())
        if not code or code[0] not in '"\'rRuU':
            continue
        try:
            t = ast.parse(code)
        except SyntaxError:
            continue
        if not (len(t.body) == 1 and _is_doc(t.body)):
            continue
        v = t.body[0].value.value
        if '\n' in v or v != v.strip() or '  ' in v:
            continue
        out.setdefault(' '.join(v.split()), {}).setdefault(v, code)
    # a comment seen with more than one wording (spaces aside) is ambiguous: left
    docments = {k: next(iter(v)) for k, v in docments.items() if len(v) == 1}
    return {'docstrings': out, 'docments': docments}


def _trailing_comment(code: str):
    "Index of the `#` that starts a comment after code on one line (quotes tracked), or None."
    q = None
    i = 0
    while i < len(code):
        c = code[i]
        if q:
            if c == '\\':
                i += 1
            elif c == q:
                q = None
        elif c in '\'"':
            q = c
        elif c == '#':
            return i
        i += 1
    return None


# ----------------------------------------------------------------------------------------------------


def unwrap_notebook(path: Path, history: dict = None, write: bool = True) -> tuple:
    "(changed?, Counter, problems) for one notebook."
    text = path.read_text(encoding='utf-8')
    nb = json.loads(text)
    total, probs = Counter(), []
    for c in nb.get('cells', []):
        if c.get('cell_type') != 'code':
            continue
        src = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        new, cnt, pr = unwrap_cell(src, history)
        probs += [f'cell {c.get("id")}: {p}' for p in pr]
        if new != src:
            c['source'] = (
                re.findall(r'[^\n]*\n|[^\n]+$', new)
                if isinstance(c['source'], list)
                else new
            )
            total += cnt
    if not total:
        return False, total, probs
    if write:
        path.write_text(
            json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + '\n',
            encoding='utf-8',
        )
    return True, total, probs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('notebooks', nargs='+', type=Path)
    ap.add_argument(
        '--check',
        action='store_true',
        help='write nothing; exit 1 if a notebook would change',
    )
    ap.add_argument(
        '--no-history',
        action='store_true',
        help='skip steps 3 and 4 (they read the git history of the notebooks)',
    )
    ap.add_argument(
        '-v', '--verbose', action='store_true', help='list the dropped edits'
    )
    a = ap.parse_args(argv)
    nbs = [p for p in a.notebooks if p.suffix == '.ipynb']
    history = {} if a.no_history or not nbs else load_history(nbs[0].resolve().parent)
    grand, changed = Counter(), []
    for p in nbs:
        ch, cnt, probs = unwrap_notebook(p, history, write=not a.check)
        grand += cnt
        if ch:
            changed.append(p)
            print(f'{p}: ' + ', '.join(f'{k} {v}' for k, v in sorted(cnt.items())))
        if probs and a.verbose:
            for pr in probs:
                print(f'  {p.name} {pr}')
    print(
        f'{"would change" if a.check else "changed"} {len(changed)} notebook(s): docstrings joined '
        f'{grand["docstring"]}, other concatenations joined {grand["concat"]}, docstrings restored '
        f'from history {grand["history"]}, signature comments put back at their line '
        f'{grand["docments"]}'
    )
    return 1 if (a.check and changed) else 0


if __name__ == '__main__':
    sys.exit(main())
