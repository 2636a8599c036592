"""The mutants mutmut does not make, made and run by ``scripts/mutation.py`` (docs/testing.md).

mutmut leaves out every decorated function (each Numba kernel, each property), cannot switch a
mutant on in code that runs from a copy of its file (the compiled search and batched step
templates, written out per game by ``core/kernel_drivers.specialised``) and never makes some
kinds of change: ``min`` for ``max``, an ``if`` whose condition is forced true or false, an
``if`` whose body is gone. This module makes those mutants from the syntax tree, each one
change to one file's bytes, and runs an area's tests against each in a copy of the package
(``PYTHONPATH`` names the copy, so the servers the tests start run the mutant too).

A mutant is named as mutmut names its own (``module.x_function__own_N``,
``module.xǁClassǁmethod__own_N``; a module constant ``NAME`` as ``module.x_NAME__own_N``), so an
area's ``functions`` globs and ``equivalent`` list cover both kinds.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

MISSING = "missing"
"""Which mutants to make: the kinds mutmut never makes, and every kind in decorated functions."""
ALL = "all"
"""Which mutants to make: every kind in every function and module constant."""

_BINARY = {
    ast.Add: ("+", "-"),
    ast.Sub: ("-", "+"),
    ast.Mult: ("*", "/"),
    ast.Div: ("/", "*"),
    ast.FloorDiv: ("//", "/"),
    ast.Mod: ("%", "/"),
    ast.Pow: ("**", "*"),
    ast.LShift: ("<<", ">>"),
    ast.RShift: (">>", "<<"),
    ast.BitAnd: ("&", "|"),
    ast.BitOr: ("|", "&"),
    ast.BitXor: ("^", "&"),
}
_COMPARE = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
    ast.Is: ("is", "is not"),
    ast.IsNot: ("is not", "is"),
    ast.In: ("in", "not in"),
    ast.NotIn: ("not in", "in"),
}
_SWAPPED_CALLS = {"min": "max", "max": "min"}


@dataclass(frozen=True)
class Mutant:
    """One change: bytes ``start:end`` of the file at ``path`` become ``replacement``."""

    name: str
    path: str
    start: int
    end: int
    replacement: bytes

    def apply(self, source: bytes) -> bytes:
        """``source`` (the file's bytes) with this change made."""
        return source[: self.start] + self.replacement + source[self.end :]

    def diff(self, source: bytes) -> str:
        """The changed lines, before and after, as a short unified diff."""
        first = source.rfind(b"\n", 0, self.start) + 1
        last = source.find(b"\n", self.end)
        last = len(source) if last < 0 else last
        changed = self.apply(source)
        after_last = last + len(self.replacement) - (self.end - self.start)
        line = source.count(b"\n", 0, first) + 1
        before = source[first:last].decode("utf-8").splitlines()
        after = changed[first:after_last].decode("utf-8").splitlines()
        return "\n".join(
            [
                f"--- {self.path}",
                f"+++ {self.path}",
                f"@@ -{line},{len(before)} +{line},{len(after)} @@ {self.name}",
                *(f"-{text}" for text in before),
                *(f"+{text}" for text in after),
            ]
        )


def mutants(source: bytes, path: str, module: str, kinds: str = MISSING) -> list[Mutant]:
    """The mutants of a module's ``source`` (its file at ``path``, importable as ``module``)
    that compile: with ``kinds`` :data:`MISSING` those mutmut does not make, with :data:`ALL`
    every kind in every function and every module constant."""
    tree = ast.parse(source)
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    made: list[Mutant] = []
    for owner, node, everything in _units(tree, kinds):
        changes = sorted(set(_changes(node, source, starts, everything)))
        for number, (start, end, replacement) in enumerate(changes, 1):
            mutant = Mutant(f"{module}.{owner}__own_{number}", path, start, end, replacement)
            try:
                compile(mutant.apply(source), path, "exec")
            except SyntaxError:
                continue
            made.append(mutant)
    return made


def _units(tree: ast.Module, kinds: str) -> Iterator[tuple[str, ast.AST, bool]]:
    """Each function, method and (with every kind) module constant: its mutmut-style name,
    its node, and whether every kind of mutant is made in it."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"x_{node.name}", node, kinds == ALL or _mutmut_skips(node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"xǁ{node.name}ǁ{item.name}"
                    yield name, item, kinds == ALL or _mutmut_skips(item)
        elif kinds == ALL and isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [found.id for found in ast.walk(targets[0]) if isinstance(found, ast.Name)]
            if len(targets) == 1 and names and node.value is not None:
                yield f"x_{'_'.join(names)}", node.value, True


def _mutmut_skips(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether mutmut leaves ``function`` alone: any decorator but one ``staticmethod`` or
    ``classmethod``."""
    decorators = function.decorator_list
    if len(decorators) == 1 and isinstance(decorators[0], ast.Name):
        return decorators[0].id not in ("staticmethod", "classmethod")
    return bool(decorators)


def _code(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``node`` that run as code: not its decorators, annotations, docstrings or
    default values (set when the function is made)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        function = isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for name, value in ast.iter_fields(current):
            if name in ("decorator_list", "annotation", "returns", "type_params") or (
                function and name == "args"
            ):
                continue
            children = value if isinstance(value, list) else [value]
            for child in children:
                if isinstance(child, ast.AST) and not _docstring(current, child):
                    stack.append(child)


def _docstring(parent: ast.AST, child: ast.AST) -> bool:
    body = getattr(parent, "body", None)
    return (
        isinstance(body, list)
        and bool(body)
        and child is body[0]
        and isinstance(child, ast.Expr)
        and isinstance(child.value, ast.Constant)
        and isinstance(child.value.value, str)
    )


Change = tuple[int, int, bytes]


def _changes(node: ast.AST, source: bytes, starts: list[int], every: bool) -> Iterator[Change]:
    def at(line: int, column: int) -> int:
        return starts[line - 1] + column

    def begin(item: ast.AST) -> int:
        return at(item.lineno, item.col_offset)  # type: ignore[attr-defined]

    def finish(item: ast.AST) -> int:
        return at(item.end_lineno, item.end_col_offset)  # type: ignore[attr-defined]

    def between(low: int, high: int, word: str, replacement: str) -> Iterator[Change]:
        """``word`` (an operator) where it stands between two operands, replaced."""
        edge = r"\b" if word[0].isalpha() else ""
        pattern = rf"(?<![<>=!*/]){edge}{re.escape(word)}{edge}(?![<>=*/])"
        found = re.search(pattern.encode(), source[low:high])
        if found is not None:
            yield low + found.start(), low + found.end(), replacement.encode()

    for item in _code(node):
        if isinstance(item, ast.If):
            yield begin(item.test), finish(item.test), b"True"
            yield begin(item.test), finish(item.test), b"False"
            yield begin(item.body[0]), finish(item.body[-1]), b"pass"
        elif isinstance(item, ast.Call) and isinstance(item.func, ast.Name):
            swapped = _SWAPPED_CALLS.get(item.func.id)
            if swapped is not None:
                yield begin(item.func), finish(item.func), swapped.encode()
        if not every:
            continue
        if isinstance(item, ast.BinOp) and type(item.op) in _BINARY:
            word, other = _BINARY[type(item.op)]
            yield from between(finish(item.left), begin(item.right), word, other)
        elif isinstance(item, ast.AugAssign) and type(item.op) in _BINARY:
            word, other = _BINARY[type(item.op)]
            yield from between(finish(item.target), begin(item.value), word + "=", other + "=")
        elif isinstance(item, ast.Compare):
            operands = [item.left, *item.comparators]
            for op, left, right in zip(item.ops, operands, operands[1:], strict=False):
                word, other = _COMPARE[type(op)]
                yield from between(finish(left), begin(right), word, other)
        elif isinstance(item, ast.BoolOp):
            word, other = ("and", "or") if isinstance(item.op, ast.And) else ("or", "and")
            for left, right in zip(item.values, item.values[1:], strict=False):
                yield from between(finish(left), begin(right), word, other)
        elif isinstance(item, ast.UnaryOp) and not isinstance(item.op, ast.UAdd):
            yield begin(item), begin(item.operand), b""
        elif isinstance(item, ast.Constant) and type(item.value) in (int, float):
            number: float = item.value  # type: ignore[assignment]
            yield begin(item), finish(item), repr(number + 1).encode()
        elif isinstance(item, ast.Constant) and type(item.value) is bool:
            yield begin(item), finish(item), repr(not item.value).encode()
        elif isinstance(item, ast.Break):
            yield begin(item), finish(item), b"continue"
        elif isinstance(item, ast.Continue):
            yield begin(item), finish(item), b"break"
