#!/usr/bin/env python3
"""Non-test source lines per crate: crates/*/src/**/*.rs, without `#[cfg(test)]` modules
(everything from a `#[cfg(test)]` line that opens a module to the end of that module)."""
import pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent

def code_lines(path):
    lines = path.read_text().splitlines()
    out, i = 0, 0
    while i < len(lines):
        opens_test_module = (
            lines[i].strip() == "#[cfg(test)]"
            and i + 1 < len(lines)
            and lines[i + 1].lstrip().startswith("mod ")
            and lines[i + 1].rstrip().endswith("{")
        )
        if opens_test_module:
            depth, i = 0, i + 1
            while i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                i += 1
                if depth == 0:
                    break
            continue
        out += 1
        i += 1
    return out

per = {}
for crate in sorted((root / "crates").iterdir()):
    src = crate / "src"
    if src.is_dir():
        per[crate.name] = sum(code_lines(p) for p in src.rglob("*.rs"))
# bmn-golden is test support (fixtures and their loader), not product source.
product = {k: v for k, v in per.items() if k != "bmn-golden"}
total = sum(product.values())
for name, n in per.items():
    share = f"{100 * n / total:5.1f}%" if name in product else "(tests)"
    print(f"{name:16} {n:6}  {share}")
print(f"{'total':16} {total:6}  (bmn-golden left out)")
if len(sys.argv) > 1:
    crate = sys.argv[1]
    print(f"{crate}: {100 * per[crate] / total:.1f}% of the product's source lines")
