#!/usr/bin/env python3
"""Make a COPY of a public app restore from this machine's partial NuGet copy (bench only, never CI).

The NuGet copy here serves some versions of some packages (../.library/env/packages/nuget.tsv). One package it lacks
fails a project's whole restore, and then Roslyn resolves no package type at all in it: the scan reads the project in
part and fix cannot compile it. This rewrites the copy's PackageReference / PackageVersion versions:
  - a version that is served: kept;
  - else the lowest served version above it of the same major, else the lowest above it, else the newest served;
  - an exact version (NuGet's "[2.1.66]"): the served one equal or nearest above, else nearest below, kept exact;
  - a range ("[1.2,2.0)", "(,3.0]"): its lower bound as above (written as that version), or below its upper bound;
  - a package with no served version: the reference is removed (its types stay unresolved: the scan says "unknown");
  - an MSBuild SDK imported by name (<Sdk Name="X" />) that is not served: the element is commented out.
Prints one line per change, so the bench note can say exactly what was read. Only the copy is changed.
Usage: bench/app-packages.py COPY_DIR [NUGET_TSV]
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: bench/app-packages.py COPY_DIR [NUGET_TSV]")
tsv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", ".library", "env", "packages", "nuget.tsv")
if root.startswith("/work/apps/"):
    sys.exit("bench: refusing to change a checkout under /work/apps: give a copy")

served = {}
with open(tsv, encoding="utf-8") as f:
    next(f)
    for line in f:
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 5:
            versions = [v for v in re.sub(r"\(.*?\)", "", cols[4]).split() if re.match(r"^\d", v)]
            if versions:
                served[cols[0].lower()] = versions


def key(v):
    parts = re.split(r"[.-]", v)
    return [int(p) if p.isdigit() else -1 for p in parts]


def nearest(versions, wanted):
    """The served version equal to or nearest above wanted, else the nearest below."""
    ordered = sorted(versions, key=key)
    above = [v for v in ordered if key(v) >= key(wanted)]
    return above[0] if above else ordered[-1]


def choose_plain(versions, wanted):
    if wanted in versions:
        return wanted
    major = wanted.split(".")[0]
    same = sorted((v for v in versions if v.split(".")[0] == major), key=key)
    above = [v for v in same if key(v) >= key(wanted)]
    if above:
        return above[0]
    # Up rather than down: a dependency of another package may need the newer one (NU1605).
    higher = sorted((v for v in versions if key(v) > key(wanted)), key=key)
    if higher:
        return higher[0]
    return sorted(versions, key=key)[-1]


def choose(name, wanted):
    versions = served.get(name.lower())
    if not versions:
        return None
    if wanted in versions:
        return wanted
    # NuGet's version ranges: brackets are not part of a version, so compare the bounds, never the written text.
    exact = re.fullmatch(r"\[\s*([^,\s\]]+)\s*\]", wanted)
    if exact:
        return "[" + nearest(versions, exact.group(1)) + "]"
    ranged = re.fullmatch(r"([\[(])\s*([^,\s]*)\s*,\s*([^\])\s]*)\s*([\])])", wanted)
    if ranged:
        lower, upper = ranged.group(2), ranged.group(3)
        if lower:
            return choose_plain(versions, lower)
        below = [v for v in sorted(versions, key=key) if key(v) <= key(upper)]
        return below[-1] if below else sorted(versions, key=key)[0]
    return choose_plain(versions, wanted)


removed = set()
comment = re.compile(r"<!--.*?-->", re.S)


def outside_comments(pattern, fn, text):
    """pattern.sub(fn) on the text between XML comments: a reference the project already commented out stays as it is
    (replacing it would nest a comment, which MSBuild refuses to load)."""
    parts, last = [], 0
    for m in comment.finditer(text):
        parts.append(pattern.sub(fn, text[last:m.start()]))
        parts.append(m.group(0))
        last = m.end()
    parts.append(pattern.sub(fn, text[last:]))
    return "".join(parts)


element = re.compile(r'<(PackageReference|PackageVersion)\s+Include="([^"]+)"\s+Version="([^"]+)"\s*(/>|>(.*?)</\1>)', re.S)
changes = 0
for folder, _, files in os.walk(root):
    for name in files:
        if not (name.endswith(".csproj") or name in ("Directory.Packages.props", "Directory.Build.props")):
            continue
        path = os.path.join(folder, name)
        text = open(path, encoding="utf-8-sig").read()

        def rewrite(m):
            global changes
            kind, package, version = m.group(1), m.group(2), m.group(3)
            if "$(" in version:
                return m.group(0)
            chosen = choose(package, version)
            rel = os.path.relpath(path, root)
            if chosen is None:
                changes += 1
                removed.add(package.lower())
                print(f"{rel}: {package} {version} removed (not served)")
                return f"<!-- tplab bench: {package} {version} not served -->"
            if chosen != version:
                changes += 1
                print(f"{rel}: {package} {version} -> {chosen}")
                return m.group(0).replace(f'Version="{version}"', f'Version="{chosen}"', 1)
            return m.group(0)

        new = outside_comments(element, rewrite, text)
        if new != text:
            open(path, "w", encoding="utf-8").write(new)
# With central package management a project's reference has no version: it goes with the removed PackageVersion.
versionless = re.compile(r'<PackageReference\s+Include="([^"]+)"[^>]*?(/>|>.*?</PackageReference>)', re.S)
for folder, _, files in os.walk(root):
    for name in files:
        if name.endswith(".csproj") or name.endswith(".props") or name.endswith(".targets"):
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8-sig").read()
            new = outside_comments(versionless, lambda m: f"<!-- tplab bench: {m.group(1)} not served -->" if m.group(1).lower() in removed else m.group(0), text)
            if new != text:
                open(path, "w", encoding="utf-8").write(new)

# An MSBuild SDK imported by name (<Sdk Name="X" />, versioned in global.json) that is not served: MSBuild cannot load
# the project at all, so the element is commented out (what it would have added stays unresolved: the scan says so).
sdk = re.compile(r'<Sdk\s+Name="([^"]+)"[^>]*/>')
for folder, _, files in os.walk(root):
    for name in files:
        if name.endswith(".csproj") or name.endswith(".props") or name.endswith(".targets"):
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8-sig").read()

            def drop_sdk(m):
                if m.group(1).lower() in served:
                    return m.group(0)
                print(f"{os.path.relpath(path, root)}: MSBuild SDK {m.group(1)} removed (not served)")
                return f"<!-- tplab bench: SDK {m.group(1)} not served -->"

            new = outside_comments(sdk, drop_sdk, text)
            if new != text:
                open(path, "w", encoding="utf-8").write(new)

# Package downgrades and "a version not served, the next taken" stay warnings: the versions above are this copy's.
# In Directory.Build.targets: imported after the project, so a project's own <NoWarn> does not replace it.
props = os.path.join(root, "Directory.Build.targets")
group = "<PropertyGroup><NoWarn>$(NoWarn);NU1605;NU1603;NU1608</NoWarn></PropertyGroup>"
if os.path.exists(props):
    text = open(props, encoding="utf-8-sig").read()
    open(props, "w", encoding="utf-8").write(text.replace("</Project>", group + "\n</Project>", 1))
else:
    open(props, "w", encoding="utf-8").write("<Project>\n  " + group + "\n</Project>\n")
print(f"{changes} package references changed; NU1605/NU1603/NU1608 not errors (Directory.Build.targets)", file=sys.stderr)
