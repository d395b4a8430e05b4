#!/usr/bin/env python3
"""tests/api/check_exports.py — does libvcuda export every function cuda_runtime_api.h declares?

The list is generated from the toolkit's header, so a new toolkit's additions show up here
as failures. The header is run through the C preprocessor twice: as it is, and with
CUDA_API_PER_THREAD_DEFAULT_STREAM defined (nvcc --default-stream per-thread), which
renames many functions to their _ptsz/_ptds forms; a program links against the names the
preprocessor leaves, so those are the names checked.

Every declared name must be a defined dynamic symbol of the library, except those listed
in the pending file (work in progress elsewhere; a name listed there that the library now
exports is an error, so the list only shrinks). The functions runtime/unsupported.c
defines (they return cudaErrorNotSupported) are printed, and the README's list of what is
not supported (its section "What is not supported") must name exactly those: each of
them, and no function that works.

usage: check_exports.py CC CUDA_INCLUDE_DIR NM LIBVCUDA PENDING UNSUPPORTED_C README
"""
import re
import subprocess
import sys


def declared(cc, include, defines):
    src = "#include <cuda_runtime_api.h>\n"
    cmd = [cc, "-E", "-P", "-x", "c", "-I", include] + defines + ["-"]
    text = subprocess.run(cmd, input=src, capture_output=True, text=True, check=True).stdout
    # extern <return type> <name>(<params>); -- the header declares each function this way
    return set(re.findall(r"\bextern\b[^;{}]*?\b(cuda\w+)\s*\(", text))


def exported(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    # names carry the library's symbol version (cudaMalloc@@libcudart.so.13): drop it
    return {line.split()[-1].split("@", 1)[0] for line in out.splitlines() if line.split()}


def listed(path):
    names = set()
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.add(line)
    return names


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    cc, include, nm, lib, pending_path, unsupported_c, readme = sys.argv[1:]
    names = declared(cc, include, []) | declared(cc, include,
                                                  ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"])
    if len(names) < 100:
        sys.exit(f"only {len(names)} declarations found in cuda_runtime_api.h: parsing failed")
    have = exported(nm, lib)
    pending = listed(pending_path)
    stubs = set(re.findall(r"^RT_UNSUPPORTED\((cuda\w+)", open(unsupported_c).read(), re.M))
    readme_text = open(readme).read()

    errors = []
    missing = sorted(n for n in names if n not in have and n not in pending)
    for n in missing:
        errors.append(f"not exported: {n}")
    for n in sorted(pending & have):
        errors.append(f"{n} is exported now: remove it from {pending_path}")
    for n in sorted(pending - names):
        errors.append(f"{n} (in {pending_path}) is not declared by the header")
    for n in sorted(stubs - names):
        errors.append(f"runtime/unsupported.c defines {n}, which the header does not declare")
    base = sorted({re.sub(r"_pt(sz|ds)$", "", n) for n in stubs})
    for n in base:
        if not re.search(r"\b" + re.escape(n) + r"\b", readme_text):
            errors.append(f"{n} returns cudaErrorNotSupported but README.md does not list it")
    section = re.search(r"^## What is not supported\n(.*?)^## ", readme_text, re.M | re.S)
    if not section:
        errors.append("README.md has no section \"What is not supported\"")
    else:
        for n in sorted(set(re.findall(r"`(cuda(?!Error)\w+)`", section.group(1))) - set(base)):
            errors.append(f"README.md lists {n} as not supported, but it is implemented")

    print(f"{len(names)} functions declared by cuda_runtime_api.h (with _ptsz/_ptds forms)")
    print(f"{len(names & have) - len(stubs & names)} implemented, {len(stubs & names)} return "
          f"cudaErrorNotSupported, {len(pending & names - have)} pending ({pending_path})")
    print("not supported:", " ".join(base))
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print("every declared function is exported")


if __name__ == "__main__":
    main()
