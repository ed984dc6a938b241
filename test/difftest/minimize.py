"""Delta debugging for run.py: shrink a program while it still fails the same way.

`shrink(source, args, still_fails, deadline)` tries smaller variants of the module one at a
time and keeps each one for which `still_fails(source, args)` is true, until no variant
is kept or the deadline (time.time() seconds) passes. The variants, biggest cuts first:

1. statements: delete one (not f's final return); replace an if/while/for by its body (or an if by its else);
   drop an else;
2. parameters: drop one that the body no longer uses (its TensorSpec and argument too);
3. expressions: replace one by one of its operands (a + b -> a, f(a, axis=0) -> a,
   a if c else b -> b, x[1:] -> x), drop a keyword argument (axis=, keepdims=), drop an
   element of a returned tuple.

Everything works on Python's `ast` of the function `f`; the result is `ast.unparse`d (the
comments are gone; run.py writes the repro line on top).
"""
import ast
import copy
import time


# --- where the edits apply ----------------------------------------------------------------

def function(tree):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "f":
            return node
    raise ValueError("no function f")


def statement_slots(fn):
    """Every (statement list, index) inside fn, in a fixed pre-order."""
    slots = []

    def walk(stmts):
        for i, s in enumerate(stmts):
            slots.append((stmts, i))
            for field in ("body", "orelse"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    walk(inner)

    walk(fn.body)
    return slots


def statement_edit(stmts, i, kind):
    """Apply one edit to stmts[i] in place; False when it does not apply."""
    s = stmts[i]
    if kind == "delete":
        stmts[i:i + 1] = []
    elif kind == "body" and isinstance(s, (ast.If, ast.While, ast.For)):
        stmts[i:i + 1] = s.body
    elif kind == "orelse" and isinstance(s, ast.If) and s.orelse:
        stmts[i:i + 1] = s.orelse
    elif kind == "noelse" and isinstance(s, ast.If) and s.orelse:
        s.orelse = []
    else:
        return False
    return True


def fill_empty(node):
    """An emptied block gets `pass`."""
    for n in ast.walk(node):
        if isinstance(getattr(n, "body", None), list) and not n.body:
            n.body.append(ast.Pass())
    return node


def statement_edits(source, args):
    count = len(statement_slots(function(ast.parse(source))))
    return [(pos, kind) for pos in range(count) for kind in ("delete", "body", "orelse", "noelse")]


def apply_statement_edit(source, args, edit):
    pos, kind = edit
    tree = ast.parse(source)
    fn = function(tree)
    stmts, i = statement_slots(fn)[pos]
    if not statement_edit(stmts, i, kind) or not (fn.body and isinstance(fn.body[-1], ast.Return)):
        return None  # f keeps its final return: a program that returns nothing tests little
    return unparse(fill_empty(tree)), args


# --- expressions --------------------------------------------------------------------------

def operands(node):
    """The smaller expressions that could stand for node."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.Compare):
        return [node.left] + list(node.comparators)
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Call):
        out = []
        for a in node.args:
            out += list(a.elts) if isinstance(a, (ast.List, ast.Tuple)) else [a]
        return out
    if isinstance(node, ast.Subscript):
        return [node.value]
    return []


def reductions(node):
    """Variants of node itself: keywords dropped, tuple elements dropped."""
    out = []
    if isinstance(node, ast.Call):
        for k in range(len(node.keywords)):
            n = copy.deepcopy(node)
            del n.keywords[k]
            out.append(n)
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) > 1:
        for k in range(len(node.elts)):
            n = copy.deepcopy(node)
            del n.elts[k]
            out.append(n)
    return out


class ReplaceNth(ast.NodeTransformer):
    """Replaces the n-th expression (pre-order) by pick(node) when that is not None."""

    def __init__(self, n, pick):
        self.n, self.pick, self.seen, self.done = n, pick, -1, False

    def visit(self, node):
        if isinstance(node, ast.expr) and not self.done:
            self.seen += 1
            if self.seen == self.n:
                self.done = True
                new = self.pick(node)
                return node if new is None else new
        return self.generic_visit(node)


def walk_preorder(node):
    """ast nodes in the order ReplaceNth visits them."""
    yield node
    for child in ast.iter_child_nodes(node):
        yield from walk_preorder(child)


def expression_edits(source, args):
    fn = function(ast.parse(source))
    edits = []
    pos = 0
    for s in fn.body:
        for node in walk_preorder(s):
            if isinstance(node, ast.expr):
                edits += [(pos, k) for k in range(len(operands(node)) + len(reductions(node)))]
                pos += 1
    return edits


def apply_expression_edit(source, args, edit):
    pos, choice = edit
    tree = ast.parse(source)
    fn = function(tree)

    def pick(node):
        options = operands(node) + reductions(node)
        return copy.deepcopy(options[choice]) if choice < len(options) else None

    replacer = ReplaceNth(pos, pick)
    fn.body = [replacer.visit(s) for s in fn.body]
    return unparse(tree), args


# --- parameters ---------------------------------------------------------------------------

def parameter_edits(source, args):
    fn = function(ast.parse(source))
    used = {n.id for s in fn.body for n in ast.walk(s) if isinstance(n, ast.Name)}
    return [k for k, a in enumerate(fn.args.args) if a.arg not in used and k < len(args)]


def apply_parameter_edit(source, args, k):
    tree = ast.parse(source)
    fn = function(tree)
    specs = signature_list(fn)
    if specs is None or k >= len(specs.elts) or k >= len(fn.args.args):
        return None
    del fn.args.args[k]
    del specs.elts[k]
    return unparse(tree), args[:k] + args[k + 1:]


def signature_list(fn):
    for d in fn.decorator_list:
        if isinstance(d, ast.Call):
            for kw in d.keywords:
                if kw.arg == "input_signature" and isinstance(kw.value, ast.List):
                    return kw.value
    return None


# --- a probe: the same function returning every name it binds ----------------------------

def returning_everything(source):
    """source with f's final return extended by every name f's own block binds: a value
    TensorFlow computed only to prune it (dead code) is then used."""
    tree = ast.parse(source)
    fn = function(tree)
    names = []
    for s in fn.body:
        targets = s.targets if isinstance(s, ast.Assign) else \
            [s.target] if isinstance(s, ast.AugAssign) else []
        if "TensorArray" in ast.unparse(s) or ".write(" in ast.unparse(s):
            continue  # a TensorArray is no result
        for t in targets:
            if isinstance(t, ast.Name) and t.id not in names:
                names.append(t.id)
    last = fn.body[-1]
    if not isinstance(last, ast.Return) or not names:
        return None
    values = last.value.elts if isinstance(last.value, ast.Tuple) else [last.value]
    last.value = ast.Tuple(elts=list(values) + [ast.Name(id=n, ctx=ast.Load()) for n in names],
                           ctx=ast.Load())
    return unparse(tree)


# --- the loop -----------------------------------------------------------------------------

def unparse(tree):
    return ast.unparse(tree) + "\n"


PASSES = ((statement_edits, apply_statement_edit), (parameter_edits, apply_parameter_edit),
          (expression_edits, apply_expression_edit))


def shrink(source, args, still_fails, deadline):
    """(source, args, tries): the smallest variant found that still fails the same way."""
    source = unparse(ast.parse(source))
    tries = 0
    changed = True
    while changed and time.time() < deadline:
        changed = False
        for list_edits, apply_edit in PASSES:
            pos = 0
            while time.time() < deadline:
                edits = list_edits(source, args)
                if pos >= len(edits):
                    break
                variant = apply_edit(source, args, edits[pos])
                if variant and variant[0] != source:
                    tries += 1
                    if still_fails(*variant):
                        source, args, changed = variant[0], variant[1], True
                        continue
                pos += 1
    return source, args, tries
