#!/usr/bin/env python3
"""trunk's post-build hook (Trunk.toml): splits the app's WebAssembly module (issue 19).

The parts the first paint does not need (the views of app/src/views.rs, what opens a file, the
share-link reader) are `wasm_split` split points in app/src/main.rs, in two modules: `views` and
`link_reader`. trunk 0.21 cannot split a module (trunk#1022), so after trunk has built the
app this hook:

1. splits the module cargo linked (with `--emit-relocs`, app/build.rs) with `wasm-split-cli`
   (crate wasm_split_cli_support, installed by scripts/setup.sh) into the main module, one
   module per name the split points give (all the functions of one name in one module), the
   chunks they share, and the JavaScript that loads them;
2. runs wasm-bindgen on the main module again, keeping the linker's exports the split modules
   import (`--keep-lld-exports`), and, for a release build, wasm-opt -Oz on every module (the
   main link in index.html turns trunk's own wasm-opt off);
3. names every file after the main module's hashed name (`keyplan-app-<hash>…`), so a browser
   never mixes a cached split module with another build's main module (their function tables
   must agree), and replaces trunk's main module, its JavaScript and their integrity digests in
   index.html;
4. writes `keyplan-split.json`, which split point each split module holds (read from the
   modules wasm-split-cli wrote, before wasm-opt drops their export names): the app's test
   `views::tests` checks every deferred view the app declares against it (issue 42), and
   scripts/split-figures prints what each costs to fetch.

Run by trunk with TRUNK_STAGING_DIR, TRUNK_PROFILE and TRUNK_SOURCE_DIR set.
"""

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

APP = "keyplan-app"
# The link module wasm-split-cli writes, as the main module imports it.
LINK = "./__wasm_split.js"
WASM_OPT = ["-Oz", "--enable-bulk-memory", "--enable-nontrapping-float-to-int"]
# KEYPLAN_WASM_NAMES=1 keeps the function names (`-g`), so a CPU profile of the page
# (scripts/bench-canvas's KEYPLAN_*_PROFILE) names the app's functions; the code is the same.
if os.environ.get("KEYPLAN_WASM_NAMES") == "1":
    WASM_OPT.append("-g")


def fail(message: str) -> None:
    print(f"split-wasm: error: {message}", file=sys.stderr)
    sys.exit(1)


def run(*args: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{args[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def replace_exactly(text: str, old: str, new: str, where: str) -> str:
    if old not in text:
        fail(f"{where} does not mention {old}")
    return text.replace(old, new)


def leb128(data: bytes, at: int) -> tuple:
    """The unsigned LEB128 number at `at`, and where it ends."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def function_names(module: Path) -> list:
    """The function names of a WebAssembly module's `name` section (custom section 0, its
    subsection 1), which wasm-split-cli keeps and wasm-opt later drops."""
    data = module.read_bytes()
    if data[:4] != b"\0asm":
        fail(f"{module} is not a WebAssembly module")
    at = 8
    while at < len(data):
        section = data[at]
        size, at = leb128(data, at + 1)
        end = at + size
        if section == 0:
            length, inner = leb128(data, at)
            if data[inner : inner + length] == b"name":
                inner += length
                while inner < end:
                    subsection = data[inner]
                    sub_size, inner = leb128(data, inner + 1)
                    if subsection == 1:
                        count, inner = leb128(data, inner)
                        names = []
                        for _ in range(count):
                            _, inner = leb128(data, inner)
                            length, inner = leb128(data, inner)
                            names.append(data[inner : inner + length].decode(errors="replace"))
                            inner += length
                        return names
                    inner += sub_size
        at = end
    return []


def split_points(module: Path) -> list:
    """The split points a module wasm-split-cli wrote holds: its functions named
    `__wasm_split_00<module>00_export_<hash>_<function>`."""
    point = re.compile(r"__wasm_split_00\w+?00_export_[0-9a-f]{32}_(\w+)")
    return sorted(m.group(1) for m in map(point.fullmatch, function_names(module)) if m)


def sri(path: Path) -> str:
    digest = hashlib.sha384(path.read_bytes()).digest()
    return "sha384-" + base64.b64encode(digest).decode()


def main() -> None:
    staging = Path(os.environ["TRUNK_STAGING_DIR"])
    source = Path(os.environ.get("TRUNK_SOURCE_DIR", "."))
    release = os.environ.get("TRUNK_PROFILE") == "release"
    target = Path(os.environ.get("CARGO_TARGET_DIR", source / "target"))
    profile = "wasm-release" if release else "debug"
    linked = target / "wasm32-unknown-unknown" / profile / f"{APP}.wasm"
    if not linked.is_file():
        fail(f"{linked} is missing: trunk should have built it")

    # trunk's main module, by its hashed name: keyplan-app-<hash>.js and _bg.wasm.
    named = [p for p in staging.glob(f"{APP}-*.js") if re.fullmatch(rf"{APP}-[0-9a-f]+\.js", p.name)]
    if len(named) != 1:
        fail(f"expected one {APP}-<hash>.js in {staging}, found {[p.name for p in named]}")
    base = named[0].stem

    with tempfile.TemporaryDirectory(prefix="keyplan-split-") as tmp:
        out = Path(tmp)
        run("wasm-split-cli", str(linked), str(out), "--target", "web", "--out-name", base)
        bindgen = out / "bindgen"
        run(
            "wasm-bindgen", "--target", "web", "--keep-lld-exports", "--no-typescript",
            "--out-dir", str(bindgen), "--out-name", base, str(out / f"{base}.wasm"),
        )
        (out / f"{base}.wasm").unlink()
        modules = sorted(out.glob("*.wasm")) + [bindgen / f"{base}_bg.wasm"]
        # What each split module holds, before wasm-opt drops the names.
        manifest = {
            "main": f"{base}_bg.wasm",
            "modules": {
                m.stem[len("split_"):]: {"file": f"{base}_{m.name}", "holds": split_points(m)}
                for m in modules[:-1]
                if m.name.startswith("split_")
            },
        }
        if release:
            for module in modules:
                run("wasm-opt", *WASM_OPT, str(module), "-o", str(module))

        # The split modules and the link module, named after the main module.
        link_name = f"{base}_split.js"
        link = (out / "__wasm_split.js").read_text()
        for module in modules[:-1]:
            link = replace_exactly(
                link, f'"./{module.name}"', f'"./{base}_{module.name}"', "the link module"
            )
            shutil.copyfile(module, staging / f"{base}_{module.name}")
        (staging / link_name).write_text(link)

        main_js = (bindgen / f"{base}.js").read_text()
        # Only where the JavaScript imports it: the wasm module's imports keep the name.
        main_js = replace_exactly(
            main_js, f'from "{LINK}"', f'from "./{link_name}"', "the main module's JavaScript"
        )
        (staging / f"{base}.js").write_text(main_js)
        shutil.copyfile(bindgen / f"{base}_bg.wasm", staging / f"{base}_bg.wasm")

    # index.html preloads the main module and its JavaScript with their digests.
    html_path = staging / "index.html"
    html = html_path.read_text()
    for name in (f"{base}.js", f"{base}_bg.wasm"):
        pattern = re.compile(rf'(href="/{re.escape(name)}"[^>]*integrity=")[^"]*(")')
        html, count = pattern.subn(lambda m: m.group(1) + sri(staging / name) + m.group(2), html)
        if count != 1:
            fail(f"index.html has {count} preloads of {name} with a digest, expected 1")
    html_path.write_text(html)
    (staging / "keyplan-split.json").write_text(json.dumps(manifest, indent=2) + "\n")
    split = sorted(p.name for p in staging.glob(f"{base}_*.wasm") if p.name != f"{base}_bg.wasm")
    print(f"split-wasm: {base}: main module and {len(split)} split modules")


if __name__ == "__main__":
    main()
