"""Wrap the code lines of the concept notebooks at 88 characters, without changing what the code does.

Usage: python tools/wrap_lines.py [--check] nbs/*.ipynb

Only code cells that hold a line longer than 88 characters change; every other cell, and the cell ids, metadata and
outputs of the changed ones, stay byte-identical, and a second run changes nothing. Experiment notebooks
(`1N_experiments_*`, executed by `make reproduce` with their stored outputs) and files starting with `_` or `.` are
skipped. Inside a cell, only the statements that hold a long line are reformatted:

1. each long line is traced (with `ast`) to the smallest statement that owns it: a simple statement, or the header of
   a compound one (`def f(...) -> T:`, `for ...:`; the body then stays as written); that statement alone goes through
   black (line length 88, quote style kept, magic trailing commas kept, long strings split into implicit
   concatenations), at its own indentation; the rest of the cell stays byte-identical, dense one-liners included;
2. what black leaves too long is mostly comments and docstrings: a trailing comment that overflows moves to its own
   line(s) above the code (directly above the line for a docments parameter or return annotation, so that
   `show_doc` keeps the same text), a long standalone comment is wrapped at the same indentation, and a long one-line
   docstring becomes a wrapped triple-quoted paragraph (the same words; Markdown renders it the same).

A rewritten cell is kept only if its syntax tree equals the original one (docstrings compared modulo whitespace), its
comments hold the same words and its `#|` directives are unchanged; otherwise the cell is left and listed. Cells with
IPython magics (`%`, `!`) or that do not parse are left and listed too. A summary per notebook is printed: cells
changed, lines > 88 before and after, and the cells left with the reason. `--check` writes nothing and exits 1 if a
notebook would change.
"""
import ast, io, json, re, sys, textwrap, tokenize
from collections import Counter
from pathlib import Path

import black
from black.mode import Preview

WIDTH = 88
ROOT = Path(__file__).resolve().parents[1]
_cfg = (ROOT / 'settings.ini').read_text() if (ROOT / 'settings.ini').exists() else ''
LIB = (re.findall(r'^lib_name\s*=\s*(\S+)', _cfg, re.M) or ['deepforest_interp'])[0]
MODE = black.Mode(line_length=WIDTH, string_normalization=False, magic_trailing_comma=True,
                  enabled_features={Preview.string_processing})
SKIP_NB = re.compile(r'^(?:[_.]|\d+_experiments_)')
COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
            ast.AsyncWith, ast.Try, ast.Match) + ((ast.TryStar,) if hasattr(ast, 'TryStar') else ())
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# a wrapped docstring line must not start a Markdown block (list item, heading, quote, table, setext underline)
RULER = re.compile(r'([-=#*~_])\1{3,}')       # `# ---- section ------`: a ruler is shortened, not wrapped
MD_START = re.compile(r'^(?:[-+*#>|=]|\d+[.)])')


def long_lines(src: str) -> list:
    "1-based numbers of the lines of `src` longer than WIDTH."
    return [i for i, l in enumerate(src.split('\n'), 1) if len(l) > WIDTH]


# ---------------------------------------------------------------------------------------------------------------
# checks that a rewrite changed nothing but layout

class _NormDoc(ast.NodeTransformer):
    "Docstrings compared modulo whitespace (a wrapped docstring has the same words)."
    def _doc(self, node):
        self.generic_visit(node)
        b = getattr(node, 'body', None)
        if b and isinstance(b[0], ast.Expr) and isinstance(b[0].value, ast.Constant) and isinstance(b[0].value.value, str):
            b[0].value.value = ' '.join(b[0].value.value.split())
        return node
    visit_Module = visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _doc

    def generic_visit(self, node):             # `from lib.m import a, b` split in two statements: the same imports
        node = super().generic_visit(node)
        for fld in ('body', 'orelse', 'finalbody'):
            body = getattr(node, fld, None)
            if not isinstance(body, list): continue
            out = []
            for b in body:
                if (isinstance(b, ast.ImportFrom) and out and isinstance(out[-1], ast.ImportFrom)
                        and (out[-1].module, out[-1].level) == (b.module, b.level) and _lib_import(b)):
                    out[-1] = ast.ImportFrom(module=b.module, names=out[-1].names + b.names, level=b.level)
                else: out.append(b)
            setattr(node, fld, out)
        return node

    def visit_Assign(self, node):
        if _doc_template(node): node.value.value = ' '.join(node.value.value.split())
        return node

    def visit_Expr(self, node):               # a bare string statement (nbdev shows it as a variable's doc)
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            node.value.value = ' '.join(node.value.value.split())
        return node


def _tree(src: str) -> str: return ast.dump(_NormDoc().visit(ast.parse(src)), include_attributes=False)


def _comments(src: str) -> list:
    return [t.string for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type == tokenize.COMMENT]


def docments_of(src: str) -> dict:
    "{(def name, n, parameter): its docments comment} as fastcore.docments finds them (whitespace-normalised)."
    tree = ast.parse(src)
    com = {t.start[0]: t.string[1:] for t in tokenize.generate_tokens(io.StringIO(src).readline)
           if t.type == tokenize.COMMENT}
    res, seen = {}, Counter()
    for d in ast.walk(tree):
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = d.args
            parms = {x.lineno: x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
            for x in (a.vararg, a.kwarg):
                if x: parms[x.lineno] = x.arg
            if d.returns: parms[d.returns.lineno] = 'return'
        elif isinstance(d, ast.ClassDef):
            parms = {x.lineno: x.target.id for x in d.body if isinstance(x, ast.AnnAssign) and isinstance(x.target, ast.Name)}
        else: continue
        seen[d.name] += 1
        if re.match(r'_(?!_)', d.name): continue   # private: nbdev shows no docments table for it
        top = _start(d)
        for line, name in parms.items():
            if line in com: doc = com[line]
            else:
                got, L = [], line - 1
                while L >= top and L in com and L not in parms: got.append(com[L]); L -= 1
                doc = ' '.join(got[::-1])
            if doc.strip(): res[(d.name, seen[d.name], name)] = ' '.join(doc.split())
    return res


def same_program(old: str, new: str) -> str:
    "Empty string if `new` is `old` re-laid out; else what differs."
    try: t_new = _tree(new)
    except SyntaxError as e: return f'rewrite does not parse ({e.msg})'
    if t_new != _tree(old): return 'syntax tree differs'
    co, cn = _comments(old), _comments(new)
    words = lambda cs: Counter(w for c in cs for w in c.lstrip('#').split() if not RULER.fullmatch(w))
    if words(co) != words(cn):
        return 'comment words differ'
    if [c for c in co if c.startswith('#|')] != [c for c in cn if c.startswith('#|')]: return 'directives differ'
    if docments_of(old) != docments_of(new): return 'docments comments differ'
    return ''


# ---------------------------------------------------------------------------------------------------------------
# step 1: black on the statements that own a long line

def _parents(tree):
    "Map id(stmt) -> (parent node, body list) for every statement."
    res = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.stmt)): continue
        for fld in ('body', 'orelse', 'finalbody', 'handlers', 'cases'):
            for ch in getattr(node, fld, []) or []:
                if isinstance(ch, ast.stmt): res[id(ch)] = (node, getattr(node, fld))
                for sub in getattr(ch, 'body', []) if isinstance(ch, (ast.ExceptHandler, ast.match_case)) else []:
                    res[id(sub)] = (node, ch.body)
    return res


def _start(s) -> int: return min([s.lineno] + [d.lineno for d in getattr(s, 'decorator_list', [])])


def _region(tree, parents, lines, L):
    "(first, last, header_only) lines of the smallest statement that owns line L, or None."
    stmts = [s for s in ast.walk(tree) if isinstance(s, ast.stmt) and _start(s) <= L <= s.end_lineno]
    if not stmts: return None
    s = min(stmts, key=lambda s: (s.end_lineno - _start(s), -s.col_offset))
    while True:
        first, last = _start(s), s.end_lineno
        after = lines[last - 1][s.end_col_offset:].strip()
        if lines[first - 1][:s.col_offset].strip() == '' and not re.match(r';\s*[^\s#]', after):
            break
        par = parents.get(id(s))        # shares a line with its parent's header (`if x: y`) or with siblings (`a; b`)
        if par is None: return None
        node, body = par
        if any(b is not s and b.lineno <= last and b.end_lineno >= first for b in body):  # `a; b`: take all of them
            sib = [b for b in body if b.lineno <= last and b.end_lineno >= first]
            grow = True
            while grow:
                lo, hi = min(_start(b) for b in sib), max(b.end_lineno for b in sib)
                new = [b for b in body if b.lineno <= hi and b.end_lineno >= lo]
                grow, sib = len(new) > len(sib), new
            b0 = min(sib, key=_start)
            if not lines[_start(b0) - 1][:b0.col_offset].strip():
                return _start(b0), max(b.end_lineno for b in sib), False
        if isinstance(node, ast.Module): return None
        s = node if isinstance(node, ast.stmt) else None
        if s is None: return None
    if isinstance(s, COMPOUND) and not isinstance(s, ast.Try):
        body0 = s.body[0].lineno if not isinstance(s, ast.Match) else s.cases[0].pattern.lineno
        b0 = s.body[0] if not isinstance(s, ast.Match) else s.cases[0].pattern
        if s.lineno <= L < body0 and body0 > s.lineno and not lines[body0 - 1][:b0.col_offset].strip():
            end = body0 - 1
            while end > s.lineno and (not lines[end - 1].strip() or lines[end - 1].strip().startswith('#')): end -= 1
            return s.lineno, end, True
    return first, last, False


def _black_snippet(text: str, indent: int, header: bool) -> str | None:
    "Black on `text` (statements at `indent` spaces), returned at the same indentation, or None."
    if indent % 4: return None
    k = indent // 4
    wrap = ''.join('    ' * j + 'if _:\n' for j in range(k))
    body = text + ('\n' + ' ' * (indent + 4) + 'pass' if header else '')
    elif_ = text.lstrip().startswith('elif ')
    if elif_: body = body.replace('elif ', 'if ', 1)
    try: out = black.format_str(wrap + body + '\n', mode=MODE)
    except Exception: return None
    out_lines = out.rstrip('\n').split('\n')
    if out_lines[:k] != wrap.rstrip('\n').split('\n')[:k] and k: return None
    out_lines = out_lines[k:]
    if header:
        if out_lines[-1].strip() != 'pass': return None
        out_lines = out_lines[:-1]
    res = '\n'.join(out_lines)
    if elif_: res = res.replace('if ', 'elif ', 1)
    return res


def _code_long_lines(src: str) -> list:
    "Long lines that hold code: not comment-only lines, not lines inside a multi-line string."
    skip = set()
    for t in tokenize.generate_tokens(io.StringIO(src).readline):
        if t.type == tokenize.STRING and t.end[0] > t.start[0]: skip.update(range(t.start[0] + 1, t.end[0] + 1))
        if t.type == tokenize.COMMENT and not t.line[:t.start[1]].strip(): skip.add(t.start[0])
    return [L for L in long_lines(src) if L not in skip]


def black_pass(src: str, orig: str | None = None) -> str:
    orig = src if orig is None else orig
    tree = ast.parse(src)
    parents, lines = _parents(tree), src.split('\n')
    regions = {r for L in _code_long_lines(src) if (r := _region(tree, parents, lines, L))}
    libimp = [(b.lineno, b.end_lineno) for b in ast.walk(tree) if _lib_import(b)]
    regions = {r for r in regions if not any(r[0] <= a and b <= r[1] for a, b in libimp)}   # see import_pass
    # keep the outermost of nested/overlapping regions
    keep = []
    for r in sorted(regions, key=lambda r: (r[0], -r[1])):
        if keep and r[0] <= keep[-1][1]: continue
        keep.append(r)
    for first, last, header in reversed(keep):
        text = '\n'.join(lines[first - 1:last])
        indent = len(lines[first - 1]) - len(lines[first - 1].lstrip(' '))
        semi = re.search(r';\s*$', text)     # `plot(...);` hides the value in Jupyter: black would drop the `;`
        new = _black_snippet(text[:semi.start()] if semi else text, indent, header)
        if new is not None and semi: new += ';' 
        if new is None or new == text: continue
        cand = lines[:first - 1] + new.split('\n') + lines[last:]
        if not same_program(orig, '\n'.join(cand)): lines = cand
    return '\n'.join(lines)


def _lib_import(b) -> bool:
    return isinstance(b, ast.ImportFrom) and (b.level > 0 or (b.module or '').split('.')[0] == LIB)


def import_pass(src: str) -> str:
    """A long `from <lib>.m import a, b, ...` becomes several one-line imports of the same module: nbdev turns only a
    one-line import of the library into a relative import when it exports."""
    tree = ast.parse(src)
    lines = src.split('\n')
    for b in sorted((b for b in ast.walk(tree) if _lib_import(b)), key=lambda b: -b.lineno):
        if all(len(l) <= WIDTH for l in lines[b.lineno - 1:b.end_lineno]): continue
        seg = '\n'.join(lines[b.lineno - 1:b.end_lineno])
        if '#' in seg or lines[b.lineno - 1][:b.col_offset].strip() or lines[b.end_lineno - 1][b.end_col_offset:].strip():
            continue
        head = ' ' * b.col_offset + f"from {'.' * b.level}{b.module or ''} import "
        names = [a.name + (f' as {a.asname}' if a.asname else '') for a in b.names]
        out, cur = [], []
        for n in names:
            if cur and len(head) + len(', '.join(cur + [n])) > WIDTH: out.append(head + ', '.join(cur)); cur = []
            cur.append(n)
        out.append(head + ', '.join(cur))
        lines[b.lineno - 1:b.end_lineno] = out
    return '\n'.join(lines)


# ---------------------------------------------------------------------------------------------------------------
# step 2: comments and docstrings

def _wrap_words(words: list, width: int) -> list:
    "Greedy wrap of `words` into lines of at most `width` characters (a longer word gets a line of its own)."
    out, cur = [], ''
    for w in words:
        if cur and len(cur) + 1 + len(w) > width: out.append(cur); cur = w
        else: cur = f'{cur} {w}' if cur else w
    if cur: out.append(cur)
    return out


def _comment_block(text: str, indent: int) -> list:
    return [' ' * indent + '# ' + l for l in _wrap_words(text.split(), WIDTH - indent - 2)]


def _def_headers(tree) -> dict:
    "line -> the def whose header (signature) holds it: docments comments live there."
    res = {}
    for d in ast.walk(tree):
        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for L in range(d.lineno, d.body[0].lineno): res[L] = d
    return res


def _stmt_start(tree, lines, L) -> int:
    "First line of the smallest statement holding line L that starts its own line (`if x: y` -> the `if`)."
    stmts = [s for s in ast.walk(tree) if isinstance(s, ast.stmt) and s.lineno <= L <= s.end_lineno
             and not lines[s.lineno - 1][:s.col_offset].strip()]
    return min(stmts, key=lambda s: s.end_lineno - s.lineno).lineno if stmts else L


def comment_pass(src: str) -> str:
    "Move overflowing trailing comments above their code; wrap long standalone comments."
    tree = ast.parse(src)
    heads, lines = _def_headers(tree), src.split('\n')
    toks = [t for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type == tokenize.COMMENT]
    edits = []                                   # (line, new lines for it, insert-before line, inserted lines)
    for t in toks:
        L, col = t.start
        line = lines[L - 1]
        if len(line) <= WIDTH or t.string.startswith('#|'): continue
        text = t.string[1:].strip()
        if not line[:col].strip():              # standalone comment: wrap in place
            m = re.search(r'\s*' + RULER.pattern + r'\s*$', line)
            if m and m.start() > 0 and len(line[:m.start()]) + 5 <= WIDTH:
                edits.append((L, [line[:m.start()] + ' ' + m.group(1) * (WIDTH - m.start() - 1)], None, None))
            else: edits.append((L, _comment_block(text, col), None, None))
            continue
        code = line[:col].rstrip()
        indent = len(line) - len(line.lstrip(' '))
        m = re.match(r'(\s*(?:async\s+)?def\s+\w+\(.*?)(\)\s*->[^()]*:)$', code)
        if m and L in heads:                    # `def f(a) -> T:  # doc`: the return docment goes just above `)`
            edits.append((L, [m.group(1)] + _comment_block(text, indent + 4) + [' ' * indent + m.group(2)], None, None))
            continue
        if len(code) + 2 + len(t.string) <= WIDTH:    # only the alignment padding overflows: two spaces
            edits.append((L, [code + '  ' + t.string], None, None))
            continue
        if len(code) > WIDTH: continue          # the code itself is too long: black first
        if L in heads:
            at = L                              # docments: the comment directly above its parameter / return line
            if code.lstrip().startswith(')'): indent += 4    # `) -> T:  # doc`: indented like the parameters
        else:                                   # a comment ending a multi-line statement goes above the statement
            at = _stmt_start(tree, lines, L)
            indent = len(lines[at - 1]) - len(lines[at - 1].lstrip(' '))
        block = _comment_block(text, indent)
        edits.append((L, [code], at, block))
    for L, repl, at, block in sorted(edits, key=lambda e: -max(e[0], e[2] or 0)):
        lines[L - 1:L] = repl
        if at is not None: lines[at - 1:at - 1] = block
    return '\n'.join(lines)


def _doc_template(a) -> bool:
    "`X_DOC = \"\"\"...\"\"\"` or `__doc__ = ...`: a docstring template (numpydoc sections spliced into docstrings)."
    return (isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
            and re.search(r'(^|_)(DOC|doc)(__)?$', a.targets[0].id) is not None
            and isinstance(a.value, ast.Constant) and isinstance(a.value.value, str))


def _docstrings(tree):
    "Docstrings, and bare string statements (nbdev shows one after an assignment as the variable's doc)."
    for b in ast.walk(tree):
        if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str): yield b


def _wrap_doc(words: list, first_width: int, width: int) -> list | None:
    "Greedy wrap where no line after the first starts a Markdown block."
    out, i = [], 0
    while i < len(words):
        w = first_width if not out else width
        j, n = i, 0
        while j < len(words) and (j == i or n + 1 + len(words[j]) <= w):
            n += len(words[j]) + (j > i); j += 1
        while j < len(words) and j > i + 1 and MD_START.match(words[j]): j -= 1   # never start a line with `-`, `#`...
        if j < len(words) and MD_START.match(words[j]): return None
        out.append(' '.join(words[i:j])); i = j
    return out


NUMPYDOC_HEAD = re.compile(r'^\s*[\w*][\w*, ]* : ')     # `name : type` in a numpydoc section


def _continues(prev: str, line: str) -> bool:
    "`line` continues the paragraph of `prev` (same indentation, no new block, no numpydoc entry, no ruler)."
    ind = lambda l: len(l) - len(l.lstrip(' '))
    return (bool(prev.strip()) and bool(line.strip()) and ind(prev) == ind(line)
            and not MD_START.match(line.lstrip()) and not NUMPYDOC_HEAD.match(line)
            and not RULER.fullmatch(prev.strip()) and not RULER.fullmatch(line.strip()))


def _wrap_long_doc_lines(lines: list, d):
    """Re-wrap the paragraph around each long line of a multi-line docstring (lines of the same indentation; a line
    that starts a Markdown block starts a new paragraph); the lines holding the quotes are split at a space."""
    first, last = d.lineno, d.end_lineno
    ind_of = lambda l: len(l) - len(l.lstrip(' '))
    L = last
    while L >= first:
        if len(lines[L - 1]) <= WIDTH: L -= 1; continue
        if first < L < last:
            ind, a, b = ind_of(lines[L - 1]), L, L
            while a - 1 > first and _continues(lines[a - 2], lines[a - 1]): a -= 1
            while b + 1 < last and _continues(lines[b - 1], lines[b]): b += 1
            words = ' '.join(lines[a - 1:b]).split()
            head = NUMPYDOC_HEAD.match(lines[a - 1])
            new = _wrap_doc(words, WIDTH - ind, WIDTH - ind - (4 if head else 0))
            if new and not (b - a + 1 == len(new) and all(l.strip() == n for l, n in zip(lines[a - 1:b], new))):
                lines[a - 1:b] = [' ' * ind + new[0]] + [' ' * (ind + (4 if head else 0)) + n for n in new[1:]]
                L = a - 1
                continue
        out, rest = [], lines[L - 1]
        ind = d.col_offset if L == first else ind_of(rest)
        while len(rest) > WIDTH:
            cut = [m.start() for m in re.finditer(' ', rest) if ind + 3 < m.start() <= WIDTH
                   and not MD_START.match(rest[m.start() + 1:]) and rest[m.start() + 1:].strip()]
            if not cut: break
            out.append(rest[:cut[-1]].rstrip()); rest = ' ' * ind + rest[cut[-1] + 1:].lstrip(' ')
        if out: lines[L - 1:L] = out + [rest]
        L -= 1


ABBREV = re.compile(r'(?:^|\W)(?:Eqs?|Secs?|Figs?|Alg|Algs|Prop|Def|Tab|e\.g|i\.e|cf|vs|etc|al|No|approx|[A-Za-z0-9])\.$')


def _summary_cut(body: str, width: int) -> int | None:
    """Where a docstring splits into a summary line and a paragraph: after the last sentence end (else `;`, else `:`)
    that keeps the summary within `width`. show_doc shows the first line of a docstring in italics as its summary, so
    a long one is not wrapped mid-sentence."""
    for marks in ('.!?', ';', ':'):
        cuts = [i for i in range(len(body) - 1) if body[i] in marks and body[i + 1] == ' ' and 20 <= i + 1 <= width
                and not (body[i] == '.' and ABBREV.search(body[:i + 1])) and body[i + 2:i + 3].strip()
                and not MD_START.match(body[i + 2:])]
        if cuts: return cuts[-1] + 1
    return None


def docstring_pass(src: str) -> str:
    """A long one-line docstring becomes a summary line, a blank line and a wrapped paragraph (the same words); with
    no sentence end to cut at, an implicit concatenation of the same text (the docstring stays one line)."""
    tree = ast.parse(src)
    lines = src.split('\n')
    docs = list(_docstrings(tree)) + [a.value for a in ast.walk(tree) if _doc_template(a)]
    for d in sorted(docs, key=lambda d: -d.lineno):
        if d.lineno != d.end_lineno:
            _wrap_long_doc_lines(lines, d)
            continue
        if len(lines[d.lineno - 1]) <= WIDTH: continue
        line = lines[d.lineno - 1]
        tok = line[d.col_offset:d.end_col_offset]
        if line[d.end_col_offset:].strip() or line[:d.col_offset].strip(): continue
        m = re.fullmatch(r'([rR]?)("""|\'\'\'|"|\')(.*)\2', tok, re.S)
        if not m: continue                       # implicit concatenation, b/f/u prefix: leave it
        pre, q, body = m.group(1), m.group(2), m.group(3)
        if body != body.strip() or '\\\n' in body: continue
        ind = d.col_offset
        cut = _summary_cut(body, WIDTH - ind - 3 - len(pre))
        if cut and '"""' not in body and not body.endswith('"'):
            rest = _wrap_doc(body[cut:].split(), WIDTH - ind, WIDTH - ind)
            if rest:
                if len(rest[-1]) + 3 + ind > WIDTH: rest.append('')
                new = [' ' * ind + pre + '"""' + body[:cut].rstrip(), ''] + [' ' * ind + r for r in rest]
                new[-1] = (new[-1] if new[-1].strip() else ' ' * ind) + '"""'
                lines[d.lineno - 1:d.lineno] = new
                continue
        # no summary to cut: ("part " "part") keeps the docstring one line, so show_doc renders it as before
        parts, cur, w0 = [], '', WIDTH - ind - 2 - 2 * len(q) - len(pre)
        for word in re.split(r'(?<= )', body):
            if cur and len(cur) + len(word) > w0: parts.append(cur); cur = ''
            cur += word
        parts.append(cur)
        if len(parts) < 2 or any(p.endswith('\\') for p in parts): continue
        new = [' ' * ind + '(' + pre + q + parts[0] + q] + [' ' * (ind + 1) + pre + q + p + q for p in parts[1:]]
        new[-1] += ')'
        lines[d.lineno - 1:d.lineno] = new
    return '\n'.join(lines)


# ---------------------------------------------------------------------------------------------------------------

def wrap_cell(src: str) -> tuple:
    "(new source, reason the cell was left or '') for one code cell."
    if not long_lines(src): return src, ''
    if re.search(r'^\s*[%!]', src, re.M): return src, 'IPython magic'
    try: ast.parse(src)
    except SyntaxError as e: return src, f'does not parse ({e.msg})'
    new = src
    for step in (import_pass, comment_pass, black_pass, docstring_pass, comment_pass, black_pass):
        try: cand = step(new, src) if step is black_pass else step(new)
        except (SyntaxError, tokenize.TokenError, ValueError): continue
        if not same_program(src, cand): new = cand
    why = same_program(src, new)
    if why: return src, why
    return new, ''


def string_data_lines(src: str) -> set:
    """Lines inside a multi-line string literal that is not a docstring (string data, e.g. a template): data,
    not code; wrapping them would change the string, so they are reported apart and tests/test_style.py skips them."""
    try: tree = ast.parse(src)
    except SyntaxError: return set()
    docs = {(d.lineno, d.col_offset) for d in _docstrings(tree)}
    docs |= {(a.value.lineno, a.value.col_offset) for a in ast.walk(tree) if _doc_template(a)}
    res = set()
    for t in tokenize.generate_tokens(io.StringIO(src).readline):
        if t.type == tokenize.STRING and t.end[0] > t.start[0] and t.start not in docs:
            res.update(range(t.start[0] + 1, t.end[0] + 1))
    return res


def _source(cell) -> str:
    s = cell['source']
    return ''.join(s) if isinstance(s, list) else s


def process(path: Path, write=True) -> dict:
    raw = path.read_text()
    nb = json.loads(raw)
    res = dict(cells=0, before=0, after=0, data=0, left=[])
    for i, c in enumerate(nb['cells']):
        if c['cell_type'] != 'code': continue
        src = _source(c)
        n = len(long_lines(src))
        res['before'] += n
        if not n: continue
        new, why = wrap_cell(src)
        left = long_lines(new)
        data = [L for L in left if L in string_data_lines(new)]
        res['data'] += len(data)
        if why: res['left'].append((c.get('id', i), why))
        elif len(left) > len(data): res['left'].append((c.get('id', i), f'{len(left) - len(data)} line(s) still > {WIDTH}'))
        if data: res['left'].append((c.get('id', i), f'{len(data)} line(s) > {WIDTH} inside a string literal (data)'))
        res['after'] += len(left)
        if new != src:
            res['cells'] += 1
            c['source'] = new.splitlines(keepends=True)
    out = json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + '\n'
    res['changed'] = out != raw
    if write and res['changed']: path.write_text(out)
    return res


def main(argv) -> int:
    check = '--check' in argv
    paths = [Path(a) for a in argv if a != '--check']
    if not paths: print(__doc__); return 2
    total, would = Counter(), []
    for p in paths:
        if p.suffix != '.ipynb': continue
        if SKIP_NB.match(p.name): print(f'{p.name}: skipped (experiment or private notebook)'); continue
        r = process(p, write=not check)
        total.update(cells=r['cells'], before=r['before'], after=r['after'], data=r['data'])
        if r['changed']: would.append(p.name)
        print(f"{p.name}: {r['cells']} cells changed; lines > {WIDTH}: {r['before']} -> {r['after']}"
              + (f" ({r['data']} in string literals)" if r['data'] else ''))
        for cid, why in r['left']: print(f'    cell {cid} left: {why}')
    print(f"total: {total['cells']} cells changed; lines > {WIDTH}: {total['before']} -> {total['after']}, of which "
          f"{total['data']} inside multi-line string literals (data) and "
          f"{total['after'] - total['data']} of code")
    if check and would: print('would change: ' + ', '.join(would)); return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
