#!/usr/bin/env python3
"""Per-platform availability for the Apple type-check (scripts/typecheck-apple).

  availability.py generate PLATFORM TARGET STANDINS OUT   write OUT/<Framework>/*.swift for PLATFORM
  availability.py check PLATFORM TARGET BUILDLOG          refuse newer-than-target uses outside #available

On Linux the compiler ignores `@available(iOS ...)`, so the stand-ins' attributes (copied from Apple's
documentation) are rewritten for the platform under check before compiling:
- unavailable on PLATFORM            -> @available(*, unavailable, message: "...")   (a compile error on use)
- introduced after the deployment    -> @available(*, deprecated, message: "WARDEN_NEWER <P> <version>")
  target                                (a warning on use, which `check` then judges by scope)
- anything else                      -> dropped
Inheritance as Apple's compilers do it: Mac Catalyst and visionOS take iOS's availability where the attribute
names no macCatalyst / visionOS entry.

`check` reads the build log: every WARDEN_NEWER warning must sit inside a scope (a brace block or a declaration)
opened by `if #available(` / `guard #available(` / `@available(` naming PLATFORM (or the platform it inherits
from) at that version or later; otherwise it is an error. Any other compiler warning is an error as well.
"""
import os
import re
import sys

INHERITS = {"macCatalyst": "iOS", "visionOS": "iOS", "iOS": None, "macOS": None}
ATTRIBUTE = re.compile(r"@available\(([^()]*)\)")
WARNING = re.compile(r"^(?P<file>/[^:]+):(?P<line>\d+):(?P<col>\d+): warning: (?P<text>.*)$")


def version(text):
    """(16,) for "16", "16.0" and "16.0.0" alike: trailing zero components are dropped so that tuple comparison
    orders versions as Swift does (otherwise (1, 0) > (1,) and visionOS 1.0 would be "newer" than target 1)."""
    parts = [int(part) for part in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def entries(arguments):
    """{platform: version | 'unavailable'} for one attribute's argument list."""
    parts = [part.strip() for part in arguments.split(",")]
    result = {}
    if len(parts) >= 2 and parts[1] == "unavailable" and parts[0] != "*":
        result[parts[0]] = "unavailable"
        return result
    for part in parts:
        match = re.fullmatch(r"(iOS|macOS|macCatalyst|visionOS|tvOS|watchOS) (\d+(?:\.\d+)*)", part)
        if match:
            result[match.group(1)] = version(match.group(2))
    return result


def lookup(found, platform):
    while platform is not None:
        if platform in found:
            return found[platform]
        platform = INHERITS.get(platform)
    return None


def rewrite(arguments, platform, target):
    if arguments.strip().startswith("*"):
        return None  # already platform-neutral: keep it
    found = entries(arguments)
    value = lookup(found, platform)
    if value == "unavailable":
        return f'@available(*, unavailable, message: "unavailable on {platform} (Apple documentation)")'
    if isinstance(value, tuple) and value > target:
        shown = ".".join(map(str, value))
        return f'@available(*, deprecated, message: "WARDEN_NEWER {platform} {shown}")'
    return ""


def generate(platform, target, standins, out):
    count = 0
    for root, _, files in os.walk(standins):
        for name in files:
            if not name.endswith(".swift"):
                continue
            source = os.path.join(root, name)
            text = open(source).read()

            def replace(match):
                nonlocal count
                new = rewrite(match.group(1), platform, target)
                if new is None:
                    return match.group(0)
                count += 1 if new else 0
                return new

            text = ATTRIBUTE.sub(replace, text)
            destination = os.path.join(out, os.path.relpath(source, standins))
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            open(destination, "w").write(text)
    print(f"availability: {count} stand-in declarations restricted for {platform} {'.'.join(map(str, target))}")


def covers(code, platform, needed, kinds):
    for match in re.finditer(r"(" + kinds + r")available\(([^()]*)\)", code):
        value = lookup(entries(match.group(2)), platform)
        if isinstance(value, tuple) and value >= needed:
            return True
    return False


ATTRIBUTE_ONLY = re.compile(r"\s*(@\w+(\([^()]*\))?\s*)*")


def attribute_line(line):
    """A line holding only attributes (`@available(...)`, `@MainActor`...) or only a comment: part of the attribute
    list of the declaration below it."""
    code = re.sub(r"//.*", "", line)
    return ATTRIBUTE_ONLY.fullmatch(code) is not None


def declared_available(lines, start, platform, needed):
    """Whether the declaration whose header begins on line `start` carries a covering `@available(...)`: inline
    before its keyword or on the attribute lines directly above it."""
    strip = lambda n: re.sub(r"//.*", "", lines[n])
    if covers(strip(start), platform, needed, "@"):
        return True
    above = start - 1
    while above >= 0 and attribute_line(lines[above]):
        if covers(strip(above), platform, needed, "@"):
            return True
        above -= 1
    return False


def header_start(lines, index, position):
    """The first line of the declaration header that reaches (line `index`, column `position`): the line itself, or
    the line of an earlier parenthesis that the position sits in (a parameter list spread over several lines) or that
    a parenthesis closed on the header's lines opened (`) throws -> T {`). Read right to left from the position up to
    the nearest brace."""
    strip = lambda n: re.sub(r"//.*", "", lines[n])
    start = index
    pending = []  # lines of the closers not matched yet
    n = index
    text = strip(n)[:position]
    while True:
        for char in reversed(text):
            if char in "{}":
                return start
            if char in ")]":
                pending.append(n)
            elif char in "([":
                closer = pending.pop() if pending else None
                if closer is None or closer >= start:  # encloses the position, or closes on the header's lines
                    start = n
        n -= 1
        if n < 0 or index - n > 50:
            return start
        text = strip(n)


def guarded(lines, index, platform, needed, column=None):
    """Whether line `index` (0-based) sits in a scope opened under an availability check covering `needed`:
    an enclosing `if #available(...) {` (an `else` block is not covered), a declaration whose attributes include
    `@available(...)` (its body, or its own signature before the body's `{`, also over several lines), or a
    `guard #available(...)` earlier in an enclosing scope. Braces are matched character by character, right to left,
    from the use outwards."""
    strip = lambda n: re.sub(r"//.*", "", lines[n])
    use = len(strip(index)) if column is None else min(len(strip(index)), column - 1)
    # The use sits in the header of a declaration (`var x: NewType {`, a parameter type): that declaration's own
    # attributes cover it, as Swift's do.
    start = header_start(lines, index, use)
    if "{" not in strip(index)[:use] and "}" not in strip(index)[:use] and declared_available(
        lines, start, platform, needed
    ):
        return True
    depth = 0
    n = index
    while n >= 0:
        code = strip(n)
        end = len(code) if n != index else use
        position = end - 1
        while position >= 0:
            char = code[position]
            if char == "}":
                depth += 1
            elif char == "{":
                if depth == 0:  # the opener of a scope enclosing the use
                    header = code[:position]
                    if "}" in header:
                        header = header[header.rindex("}") + 1 :]  # `} else {`: only what follows the `}`
                    if covers(header, platform, needed, "#|@"):
                        return True
                    if header.strip() == code[:position].strip():  # the header starts this line: attributes above
                        if declared_available(lines, header_start(lines, n, position), platform, needed):
                            return True
                else:
                    depth -= 1
            position -= 1
        if depth == 0 and n != index and re.search(r"guard\s+#available", code) and covers(code, platform, needed, "#"):
            return True
        n -= 1
    return False


def check(platform, target, log):
    problems = []
    newer = 0
    for raw in open(log, errors="replace"):
        match = WARNING.match(raw.strip())
        if not match:
            continue
        text = match.group("text")
        path, line = match.group("file"), int(match.group("line"))
        newer_match = re.search(r"WARDEN_NEWER (\S+) ([\d.]+)", text)
        if newer_match:
            newer += 1
            lines = open(path, errors="replace").read().split("\n")
            if not guarded(lines, line - 1, platform, version(newer_match.group(2)), int(match.group("col"))):
                problems.append(
                    f"{path}:{line}: uses an API introduced in {newer_match.group(1)} {newer_match.group(2)}, above "
                    f"the deployment target {platform} {'.'.join(map(str, target))}, outside an availability check")
        else:
            problems.append(f"{path}:{line}: warning: {text}")
    for problem in sorted(set(problems)):
        print(problem, file=sys.stderr)
    print(f"availability: {newer} use(s) of newer API, all inside availability checks" if not problems
          else f"availability: {len(set(problems))} problem(s) on {platform}")
    return 1 if problems else 0


if __name__ == "__main__":
    command, platform, target = sys.argv[1], sys.argv[2], version(sys.argv[3])
    if command == "generate":
        generate(platform, target, sys.argv[4], sys.argv[5])
    else:
        sys.exit(check(platform, target, sys.argv[4]))
