#!/usr/bin/env python3
"""trunk's post-build hook (Trunk.toml): splits the app's WebAssembly module (issue 19).

The parts the first paint does not need (app/src/deferred.rs) are `wasm_split` split points in
app/src/main.rs. trunk 0.21 cannot split a module (trunk#1022), so after trunk has built the
app this hook:

1. splits the module cargo linked (with `--emit-relocs`, app/build.rs) with `wasm-split-cli`
   (crate wasm_split_cli_support, installed by scripts/setup.sh) into the main module, one
   module per split point, the chunks they share, and the JavaScript that loads them;
2. runs wasm-bindgen on the main module again, keeping the linker's exports the split modules
   import (`--keep-lld-exports`), and, for a release build, wasm-opt -Oz on every module (the
   main link in index.html turns trunk's own wasm-opt off);
3. names every file after the main module's hashed name (`keyplan-app-<hash>…`), so a browser
   never mixes a cached split module with another build's main module (their function tables
   must agree), and replaces trunk's main module, its JavaScript and their integrity digests in
   index.html.

Run by trunk with TRUNK_STAGING_DIR, TRUNK_PROFILE and TRUNK_SOURCE_DIR set.
"""

import base64
import hashlib
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
    split = sorted(p.name for p in staging.glob(f"{base}_*.wasm") if p.name != f"{base}_bg.wasm")
    print(f"split-wasm: {base}: main module and {len(split)} split modules")


if __name__ == "__main__":
    main()
