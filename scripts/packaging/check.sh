#!/usr/bin/env bash
# Checks the cluster packaging templates (issue 19) without Spack or Lmod:
#  - spack/onepass/package.py is imported against a stand-in of
#    `spack.package` that records its directives; the recipe must be a
#    CMakePackage with a version, depend on LLVM/Clang 22, CMake, zstd and
#    zlib, and pass llvm-config and clang++ of that LLVM to CMake.
#  - lmod/onepass.lua must parse (luac -p) and, run against stand-ins of
#    Lmod's functions, put <root>/bin on PATH and <root> on CMAKE_PREFIX_PATH.
#   bash scripts/packaging/check.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/spack"
cat > "$work/spack/__init__.py" <<'PY'
PY
cat > "$work/spack/package.py" <<'PY'
# A stand-in for Spack's package API: directives are recorded on the class.
import os
calls = []
def _directive(name):
    def record(*args, **kwargs):
        calls.append((name, args, kwargs))
    return record
for _name in ["version", "variant", "depends_on", "maintainers", "license", "generator", "conflicts", "patch",
              "provides", "requires", "resource"]:
    globals()[_name] = _directive(_name)
def join_path(*parts):
    return os.path.join(*parts)
class CMakePackage:
    def define(self, name, value):
        return "-D%s=%s" % (name, value)
    def define_from_variant(self, name, variant):
        return "-D%s=<%s>" % (name, variant)
__all__ = [n for n in globals() if not n.startswith("__")]
PY
PYTHONPATH="$work" python3 - "$here/spack/onepass/package.py" <<'PY'
import importlib.util, sys, types
import spack.package as api
spec = importlib.util.spec_from_file_location("onepass_package", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
cls = module.Onepass
assert issubclass(cls, api.CMakePackage), "Onepass must be a CMakePackage"
names = [c[0] for c in api.calls]
deps = [c[1][0] for c in api.calls if c[0] == "depends_on"]
assert "version" in names, "no version() directive"
for needed in ["llvm@22", "cmake", "zstd", "zlib"]:
    assert any(d.startswith(needed) for d in deps), "no depends_on(%s...): %s" % (needed, deps)
assert any(d.startswith("llvm@22") and "+clang" in d for d in deps), "LLVM 22 without clang"
for attribute in ["homepage", "git"]:
    assert getattr(cls, attribute, ""), "no %s" % attribute
# cmake_args with a stand-in spec: llvm-config and clang++ of the LLVM dependency.
llvm = types.SimpleNamespace(prefix=types.SimpleNamespace(bin="/spack/llvm/bin"))
package = cls.__new__(cls)
package.spec = {"llvm": llvm}
args = package.cmake_args()
assert "-DLLVM_CONFIG=/spack/llvm/bin/llvm-config" in args, args
assert "-DONEPASS_CLANGXX=/spack/llvm/bin/clang++" in args, args
print("packaging: spack/onepass/package.py: a CMakePackage, %d directives, depends on %s" % (len(names), ", ".join(deps)))
PY

luac=$(command -v luac5.4 || command -v luac5.3 || command -v luac || true)
lua=$(command -v lua5.4 || command -v lua5.3 || command -v lua || true)
if [ -z "$luac" ] || [ -z "$lua" ]; then
  echo "packaging: lmod/onepass.lua: SKIPPED: no lua/luac (Debian: lua5.4, which scripts/setup-deps.sh installs)"
  exit 77
fi
"$luac" -p "$here/lmod/onepass.lua"
cat > "$work/lmod.lua" <<'LUA'
-- Stand-ins for the Lmod functions a modulefile calls.
paths = {}
env = {}
function whatis(s) end
function help(s) end
function pathJoin(...) return table.concat({...}, "/") end
function prepend_path(var, value) paths[var] = value .. ":" .. (paths[var] or "") end
function append_path(var, value) paths[var] = (paths[var] or "") .. ":" .. value end
function setenv(var, value) env[var] = value end
dofile(arg[1])
assert(paths["PATH"]:find("^/opt/onepass/bin:"), "PATH lacks <root>/bin")
assert(paths["CMAKE_PREFIX_PATH"]:find("^/opt/onepass:"), "CMAKE_PREFIX_PATH lacks <root>")
print("packaging: lmod/onepass.lua: parses; PATH and CMAKE_PREFIX_PATH get the prefix")
LUA
"$lua" "$work/lmod.lua" "$here/lmod/onepass.lua"
echo "packaging: PASSED"
