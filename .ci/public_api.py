#!/usr/bin/env python3
"""The public API of the quadrille library, one item a line, read from rustdoc's JSON.

Usage: public_api.py CRATE.json SNAPSHOT [--bless]

Compares the list with SNAPSHOT and fails with the difference, or with --bless writes it there.

Walks from the crate root through the public modules, their items and their re-exports
(`pub use`), and lists what a user of the crate can name:

    mod quadrille::exact_cover
    struct quadrille::exact_cover::Dlx
    fn quadrille::exact_cover::Dlx::count_all        (a method, from an inherent impl)
    field quadrille::budget::Request::limit
    variant quadrille::error::ErrorKind::UnknownItem
    impl Clone for quadrille::exact_cover::Dlx       (a trait implemented by hand or derived)
    reexport quadrille::Budget -> quadrille::budget::Budget

An item re-exported under several paths is listed under its own path (where it is defined,
when that is public), with its members; the other paths are `reexport` lines. Left out:
`#[doc(hidden)]` items (rustdoc leaves them out too); auto-trait impls (Send, Sync, ...),
blanket impls and the compiler's marker impls, which no one writes; and signatures: the list
is of names, so that a new or removed name shows in the diff, a changed signature does not.
In impl lines a local item is named by the path it is listed under, another crate's trait by
its name (`Clone`), and another crate's type by the path where it is defined
(`From<std::io::error::Error>`): a new toolchain that moves such a type changes that line.
"""

import difflib
import json
import sys

# The JSON format this reader was written for (rustdoc 1.95). An older or newer format may
# still read correctly; a different number is reported, not refused.
FORMAT_VERSION = 57

# rustdoc's item kinds, as the word that starts each line.
KIND_WORDS = {
    "module": "mod",
    "struct": "struct",
    "enum": "enum",
    "union": "union",
    "trait": "trait",
    "trait_alias": "trait",
    "function": "fn",
    "constant": "const",
    "static": "static",
    "type_alias": "type",
    "macro": "macro",
    "proc_macro": "macro",
    "assoc_const": "const",
    "assoc_type": "type",
    "struct_field": "field",
    "variant": "variant",
}


# Traits the compiler implements beside a derive (`StructuralPartialEq` with `PartialEq`):
# the derive's own line says it.
COMPILER_MARKERS = ("StructuralPartialEq",)


def kind_of(item):
    return next(iter(item["inner"]))


def is_hidden(item):
    return any("doc(hidden)" in json.dumps(attr) for attr in item.get("attrs", []))


class Api:
    def __init__(self, doc):
        self.index = doc["index"]
        self.paths = doc["paths"]
        self.root = doc["root"]
        self.crate_name = self.index[str(self.root)]["name"]
        # Every public path of every local item reached from the root: id -> set of paths.
        self.reached = {}
        self.externals = []  # (path, external path) of re-exports of other crates' items

    def item(self, id_):
        return self.index.get(str(id_))

    def walk(self):
        self.visit_module(self.root, self.crate_name, set())

    def visit_module(self, id_, path, on_the_way):
        if id_ in on_the_way:  # a module that re-exports one of its ancestors
            return
        self.reached.setdefault(id_, set()).add(path)
        for child in self.item(id_)["inner"]["module"]["items"]:
            self.visit(child, path, on_the_way | {id_})

    def visit(self, id_, parent_path, on_the_way):
        item = self.item(id_)
        if item is None or is_hidden(item) or item["visibility"] != "public":
            return
        kind = kind_of(item)
        if kind == "use":
            self.visit_use(item["inner"]["use"], parent_path, on_the_way)
        elif kind == "module":
            self.visit_module(id_, f"{parent_path}::{item['name']}", on_the_way)
        elif kind != "impl":
            self.reached.setdefault(id_, set()).add(f"{parent_path}::{item['name']}")

    def visit_use(self, use, parent_path, on_the_way):
        target = self.item(use["id"]) if use["id"] is not None else None
        if target is None:
            # Another crate's item, or one rustdoc does not document.
            if not use["is_glob"]:
                known = self.paths.get(str(use["id"]))
                source = "::".join(known["path"]) if known else use["source"]
                self.externals.append((f"{parent_path}::{use['name']}", source))
            return
        if use["is_glob"]:
            if kind_of(target) == "module":
                for child in target["inner"]["module"]["items"]:
                    self.visit(child, parent_path, on_the_way)
            return
        if is_hidden(target):
            return
        path = f"{parent_path}::{use['name']}"
        if kind_of(target) == "module":
            self.visit_module(use["id"], path, on_the_way)
        else:
            self.reached.setdefault(use["id"], set()).add(path)

    def own_path(self, id_):
        """The path an item is listed under: where it is defined, when that path is public,
        else the shortest of its public paths."""
        paths = self.reached[id_]
        known = self.paths.get(str(id_))
        if known and "::".join(known["path"]) in paths:
            return "::".join(known["path"])
        return min(paths, key=lambda p: (p.count("::"), p))

    def lines(self):
        lines = set()
        for id_ in self.reached:
            item = self.item(id_)
            own = self.own_path(id_)
            kind = kind_of(item)
            lines.add(f"{KIND_WORDS.get(kind, kind)} {own}")
            for other in self.reached[id_] - {own}:
                lines.add(f"reexport {other} -> {own}")
            lines.update(self.members(id_, item, own))
        for path, source in self.externals:
            lines.add(f"reexport {path} -> {source}")
        return sorted(lines)

    def members(self, id_, item, own):
        """The fields, variants, methods, associated items and trait impls of an item."""
        kind = kind_of(item)
        inner = item["inner"][kind]
        if kind == "struct":
            yield from self.fields(inner["kind"], own)
            yield from self.impls(inner["impls"], own, id_)
        elif kind == "union":
            yield from self.named(inner["fields"], own)
            yield from self.impls(inner["impls"], own, id_)
        elif kind == "enum":
            for variant_id in inner["variants"]:
                variant = self.item(variant_id)
                if variant is None or is_hidden(variant):
                    continue
                path = f"{own}::{variant['name']}"
                yield f"variant {path}"
                # A variant's fields are as public as the enum (rustdoc says "default").
                yield from self.fields(variant["inner"]["variant"]["kind"], path, False)
            yield from self.impls(inner["impls"], own, id_)
        elif kind == "trait":
            yield from self.named(inner["items"], own, public_only=False)

    def fields(self, shape, path, public_only=True):
        if not isinstance(shape, dict):  # a unit struct or variant ("unit", "plain")
            return
        if "tuple" in shape:  # a field rustdoc left out, as private, is None
            ids = [f for f in shape["tuple"] if f is not None]
        else:
            ids = (shape.get("plain") or shape.get("struct"))["fields"]
        yield from self.named(ids, path, public_only)

    def named(self, ids, path, public_only=True):
        for id_ in ids:
            member = self.item(id_)
            if member is None or is_hidden(member):
                continue
            if public_only and member["visibility"] != "public":
                continue
            kind = kind_of(member)
            yield f"{KIND_WORDS.get(kind, kind)} {path}::{member['name']}"

    def impls(self, ids, own, own_id):
        for id_ in ids:
            impl_item = self.item(id_)
            if impl_item is None or is_hidden(impl_item):
                continue
            impl = impl_item["inner"]["impl"]
            if impl["is_synthetic"] or impl["blanket_impl"] is not None:
                continue
            if impl["trait"] and impl["trait"]["path"].endswith(COMPILER_MARKERS):
                continue
            # An item's impls include those where it is only a trait's argument
            # (`impl From<CspReport> for Outcome`): each is listed under its own type.
            if not self.is_for(impl["for"], own_id):
                continue
            if impl["trait"] is None:
                yield from self.named(impl["items"], own)
            else:
                negative = "!" if impl["is_negative"] else ""
                trait = self.render_trait(impl["trait"])
                yield f"impl {negative}{trait} for {self.render_type(impl['for'])}"

    def is_for(self, ty, id_):
        """Whether an impl's type is the item `id_`, or a reference to it."""
        if "borrowed_ref" in ty:
            ty = ty["borrowed_ref"]["type"]
        return ty.get("resolved_path", {}).get("id") == id_

    def render_trait(self, path):
        """A trait with its generic arguments: a local one by its path, another crate's by its
        name (`Clone`, `Serialize`), which no other trait here shares."""
        if path.get("id") in self.reached:
            return self.render_path(path)
        return path["path"].split("::")[-1] + self.render_args(path.get("args"))

    def render_path(self, path):
        """A path with its generic arguments: a local item by the path it is listed under,
        another crate's by the path where it is defined (`std::io::error::Error`)."""
        return self.type_name(path) + self.render_args(path.get("args"))

    def type_name(self, path):
        id_ = path.get("id")
        if id_ in self.reached:
            return self.own_path(id_)
        known = self.paths.get(str(id_))
        if known is None or known["crate_id"] == 0:
            return path["path"].split("::")[-1]  # not known, or local and not public
        return "::".join(known["path"])

    def render_args(self, args):
        if not args:
            return ""
        if "angle_bracketed" in args:
            bracketed = args["angle_bracketed"]
            parts = []
            for arg in bracketed["args"]:
                if "lifetime" in arg:
                    parts.append(arg["lifetime"])
                elif "type" in arg:
                    parts.append(self.render_type(arg["type"]))
                elif "const" in arg:
                    parts.append(arg["const"].get("expr", "_"))
                else:
                    parts.append("_")
            for constraint in bracketed.get("constraints", []):
                binding = constraint.get("binding", {})
                if "equality" in binding and "type" in binding["equality"]:
                    value = self.render_type(binding["equality"]["type"])
                    parts.append(f"{constraint['name']} = {value}")
                else:
                    parts.append(constraint["name"])
            return f"<{', '.join(parts)}>" if parts else ""
        if "parenthesized" in args:
            inputs = ", ".join(self.render_type(t) for t in args["parenthesized"]["inputs"])
            output = args["parenthesized"].get("output")
            return f"({inputs})" + (f" -> {self.render_type(output)}" if output else "")
        return ""

    def render_type(self, ty):
        """A type as a reader writes it."""
        kind, inner = next(iter(ty.items())) if isinstance(ty, dict) else (ty, None)
        if kind == "resolved_path":
            return self.render_path(inner)
        if kind in ("generic", "primitive"):
            return inner
        if kind == "tuple":
            return "(" + ", ".join(self.render_type(t) for t in inner) + ")"
        if kind == "slice":
            return f"[{self.render_type(inner)}]"
        if kind == "array":
            return f"[{self.render_type(inner['type'])}; {inner['len']}]"
        if kind == "borrowed_ref":
            lifetime = f"{inner['lifetime']} " if inner.get("lifetime") else ""
            mutable = "mut " if inner["is_mutable"] else ""
            return f"&{lifetime}{mutable}{self.render_type(inner['type'])}"
        if kind == "raw_pointer":
            pointer = "*mut " if inner["is_mutable"] else "*const "
            return pointer + self.render_type(inner["type"])
        if kind == "dyn_trait":
            return "dyn " + " + ".join(self.render_path(t["trait"]) for t in inner["traits"])
        if kind == "qualified_path":
            return f"{self.render_type(inner['self_type'])}::{inner['name']}"
        if kind == "infer":
            return "_"
        return kind


def main():
    args = sys.argv[1:]
    bless = "--bless" in args
    args = [a for a in args if a != "--bless"]
    if len(args) != 2:
        sys.exit("usage: public_api.py CRATE.json SNAPSHOT [--bless]")
    doc_path, snapshot = args
    with open(doc_path) as file:
        doc = json.load(file)
    if doc.get("format_version") != FORMAT_VERSION:
        print(
            f"note: rustdoc JSON format {doc.get('format_version')}, "
            f"this reader was written for {FORMAT_VERSION}",
            file=sys.stderr,
        )
    api = Api(doc)
    api.walk()
    lines = [line + "\n" for line in api.lines()]
    impls = sum(line.startswith("impl ") for line in lines)
    counts = f"{len(lines) - impls} items and {impls} trait impls"
    if bless:
        with open(snapshot, "w") as file:
            file.writelines(lines)
        print(f"public API: wrote {snapshot} ({counts})")
        return
    try:
        with open(snapshot) as file:
            committed = file.readlines()
    except FileNotFoundError:
        committed = []
    if committed != lines:
        sys.stdout.writelines(
            difflib.unified_diff(committed, lines, snapshot, "the library's public API now")
        )
        sys.exit(
            f"\nThe public API differs from {snapshot} (above: - is gone, + is new).\n"
            "If the change is meant, run .ci/public_api.sh --bless and commit the file."
        )
    print(f"public API: {counts}, as in {snapshot}")


if __name__ == "__main__":
    main()
