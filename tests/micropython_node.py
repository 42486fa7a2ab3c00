"""Runs a scenario under real MicroPython 1.27 (the WebAssembly build on Node.js, installed by
tests/setup.d/bridge.sh) with the given modules on its path; shared by the bridge's and the
firmware's byte-for-byte tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "firmware_bridge" / ".node" / "node_modules" / "@micropython" / \
    "micropython-webassembly-pyscript"
#: skips where Node.js itself is missing (the package missing is a failure: tests/run installs it)
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed "
                                "(tests/setup.d/bridge.sh installs Debian's nodejs)")

# argv: the package, the modules for /lib (any number), the scenario, the output file
RUNNER = r'''
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
const args = process.argv.slice(2);
const [pkg, out, scenario] = [args[0], args[args.length - 1], args[args.length - 2]];
const { loadMicroPython } = await import(pkg + "/micropython.mjs");
const errors = [];
const mp = await loadMicroPython({ stdout: (t) => process.stdout.write(t + "\n"),
                                   stderr: (t) => errors.push(t) });
mp.FS.mkdir("/lib");
for (const lib of args.slice(1, -2)) mp.FS.writeFile("/lib/" + basename(lib), readFileSync(lib));
mp.FS.writeFile("/lib/scenario.py", readFileSync(scenario));
try {
  mp.runPython("import sys\nsys.path.append('/lib')\nprint(sys.implementation.name, " +
               "sys.implementation.version)\nOUT = '/out.bin'\nexec(open('/lib/scenario.py').read())");
} catch (e) {
  console.error("micropython: " + e + " " + errors.join(" "));
  process.exit(1);
}
writeFileSync(out, mp.FS.readFile("/out.bin"));
'''


def run_micropython(tmp_path: Path, libs: list[Path], scenario: str) -> bytes:
    """The bytes ``scenario`` wrote to OUT under MicroPython 1.27, with ``libs`` importable."""
    if not (PACKAGE / "micropython.mjs").exists():
        pytest.fail(f"{PACKAGE} is missing: run tests/setup.d/bridge.sh (or tests/run)")
    (tmp_path / "scenario.py").write_text(scenario)
    (tmp_path / "run.mjs").write_text(RUNNER)
    out = tmp_path / "micropython.bin"
    r = subprocess.run(["node", str(tmp_path / "run.mjs"), str(PACKAGE), *map(str, libs),
                        str(tmp_path / "scenario.py"), str(out)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr + r.stdout
    assert r.stdout.startswith("micropython (1, 27"), r.stdout
    return out.read_bytes()
