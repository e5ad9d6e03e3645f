#!/usr/bin/env python3
"""Every command and code block in the docs runs as written, and every relative link resolves.

Usage: docs_test.py FLIPBOOK [--page NAME] [--keep] [--installed | --user INSTALLED]

The docs are README.md and every DocC catalog's articles (Sources/*/*.docc/*.md). Each page runs
in a fresh folder of its own, its blocks in order, with `flipbook` on PATH (the binary given) and
`Assets` linked to the repository's, so a page reads as the tutorial it is. A block is one of:

- ```sh: each command runs with bash and must exit 0, or the status its `# exits N` comment
  says. `Scripts/flipbook ARGS` runs as `flipbook ARGS` (it builds and runs this very binary);
  `Scripts/test` is this run and is not run again. `flipbook studio` and `--watch` run until
  they print their first line, then are stopped, as Ctrl-C would.
- ```text: what a command prints; not run. One that starts with `$ COMMAND` is a transcript: the
  command runs there, and what it prints must be the block's other lines, but for seconds (any
  `N.N s` stands for any other) and a line `...`, which stands for any number of lines.
- a block after `<!-- file: PATH -->`: written to PATH in the page's folder, for the commands
  after it (a scene file, a config, a manifest, a workflow, a package's files).
- a block after `<!-- part-of: PATH -->`: each of its lines (less indentation; imports apart)
  stands, in order and together, in that repository file, which a test compiles and runs.
- a block after `<!-- needs: WHY -->`: not run, and listed as such with its reason.

Any other block is an error: a block the test cannot run is a block that can go stale.

With --installed, FLIPBOOK is an installed Flipbook (the .deb's /usr/bin/flipbook, run by
Scripts/package --check) and each page runs as a user without a clone would run it: no
`Assets` link, no toolchain on PATH, and only the commands that do not name this repository
(`Scripts/…`, `Assets/…`) or need a toolchain or a checkout (`swift …`, `git …`); those ran in
the clone run. part-of blocks and links are the clone run's too.

With --user INSTALLED, both in one run, each command once: a command that names this repository
(or needs a toolchain or a checkout) runs as in the clone run, with FLIPBOOK and `Assets` linked
while it runs; every other command runs as a user without a clone runs it, with the installed
Flipbook INSTALLED, no toolchain on PATH, a home of its own and no `Assets` link. Scripts/test
runs the docs test so, through Scripts/package --check, while the .deb is installed.
Links: a relative link or image must name a file that exists, and `file.md#anchor` an anchor
GitHub makes from one of its headings; a DocC `<doc:Name>` must name an article of its catalog.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FENCE = re.compile(r"^```(\S*)\s*$")
ANNOTATION = re.compile(r"^<!-- (file|part-of|needs): (.+?) -->$")


def pages():
    found = ["README.md"] + sorted(glob.glob("Sources/*/*.docc/*.md", root_dir=ROOT))
    return [os.path.join(ROOT, p) for p in found]


def blocks(path):
    """Each fenced block: (line, language, annotation kind, annotation value, text)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if re.match(r"^\s+```", lines[i]):
                raise SystemExit(f"{path}:{i + 1}: an indented code block, which this test would not run: "
                                 "put it at the start of a line, outside the list")
            i += 1
            continue
        start, language = i, m.group(1)
        j = i + 1
        while j < len(lines) and lines[j] != "```":
            j += 1
        if j == len(lines):
            raise SystemExit(f"{path}:{start + 1}: a code block that never closes")
        kind = value = None
        if start > 0:
            a = ANNOTATION.match(lines[start - 1])
            if a:
                kind, value = a.group(1), a.group(2)
        out.append((start + 1, language, kind, value, "\n".join(lines[start + 1 : j]) + "\n"))
        i = j + 1
    return out


def commands(text):
    """A shell block's commands: continuation lines joined, comments and blank lines dropped."""
    out, current = [], ""
    for line in text.split("\n"):
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip() and not current.strip().startswith("#"):
            out.append(current.strip())
        current = ""
    return out


def expected_status(command):
    m = re.search(r"#\s*exits (\d+)", command)
    return int(m.group(1)) if m else 0


CLONE_ONLY = re.compile(r"(^|[\s=(\"'])(\./)?(Scripts|Assets)/|^(swift|git)\b|\.build/")


def names_clone(command):
    """Whether `command` needs this repository, a toolchain or a checkout."""
    return bool(CLONE_ONLY.search(command))


def run_command(command, cwd, env, failures, where, log, installed=False):
    if installed and names_clone(command):
        log.append(f"  {where}: {command[:100]}  (a clone's: not run installed)")
        return
    command = re.sub(r"^Scripts/flipbook ", "flipbook ", command)
    if command.split()[0] == "Scripts/test":
        log.append(f"  {where}: {command}  (this run)")
        return
    long_running = "flipbook studio" in command or " --watch" in command
    started = time.monotonic()
    if long_running:
        process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, start_new_session=True)
        first = process.stdout.readline()
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            failures.append(f"{where}: {command}: did not stop on Ctrl-C")
        if not first.strip():
            failures.append(f"{where}: {command}: printed nothing before it was stopped\n{process.stderr.read()}")
        log.append(f"  {where}: {command}  (ran until its first line: {first.strip()[:60]})")
        return
    want = expected_status(command)
    try:
        done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=180)
    except subprocess.TimeoutExpired:
        failures.append(f"{where}: {command}: still running after 180 s")
        return
    if done.returncode != want:
        failures.append(f"{where}: {command}: exit {done.returncode}, expected {want}\n{done.stderr[-2000:]}")
    log.append(f"  {where}: {command[:100]}  ({time.monotonic() - started:.1f} s)")


SECONDS = re.compile(r"\b\d+\.\d+ s\b")


def same_lines(expected, printed):
    """Whether `printed` is `expected`, a line `...` in it standing for any number of lines."""
    if not expected:
        return not printed
    if expected[0].strip() == "...":
        return any(same_lines(expected[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and expected[0] == printed[0] and same_lines(expected[1:], printed[1:])


def transcript(text, cwd, env, failures, where, log):
    """Runs a transcript's `$ COMMAND` and checks that it prints the lines after it."""
    lines = [SECONDS.sub("N s", line) for line in text.rstrip("\n").split("\n")]
    command = text.split("\n", 1)[0][2:]
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    printed = [SECONDS.sub("N s", line) for line in (done.stdout + done.stderr).rstrip("\n").split("\n")]
    if not same_lines(lines[1:], printed):
        failures.append(f"{where}: '{command}' no longer prints what the page shows; it prints:\n"
                        + (done.stdout + done.stderr))
    log.append(f"  {where}: $ {command[:100]}  (a transcript, checked)")


def part_of(text, target, failures, where):
    try:
        source = open(os.path.join(ROOT, target), encoding="utf-8").read()
    except OSError as error:
        failures.append(f"{where}: part-of {target}: {error}")
        return
    imports = [l.strip() for l in text.split("\n") if l.startswith("import ")]
    body = [l.strip() for l in text.split("\n") if l.strip() and not l.startswith("import ")]
    stripped = [l.strip() for l in source.split("\n") if l.strip()]
    for line in imports:
        if line not in stripped:
            failures.append(f"{where}: part-of {target}: it has no line '{line}'")
    for i in range(len(stripped) - len(body) + 1):
        if stripped[i : i + len(body)] == body:
            return
    failures.append(f"{where}: part-of {target}: its lines do not stand there together, in order")


def slug(heading):
    """The anchor GitHub makes from a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def check_links(path, failures):
    text = open(path, encoding="utf-8").read()
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    folder = os.path.dirname(path)
    where = os.path.relpath(path, ROOT)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"^[a-z]+:", target) or target.startswith("<doc:"):
            continue
        file, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(folder, file)) if file else path
        if not os.path.exists(resolved):
            failures.append(f"{where}: a link to {target}: no such file")
            continue
        if anchor and resolved.endswith(".md"):
            headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", open(resolved).read(), flags=re.S), re.M)
            if anchor not in {slug(h) for h in headings}:
                failures.append(f"{where}: a link to {target}: no heading makes that anchor")
    if ".docc" in path:
        articles = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(folder, "*.md"))}
        for name in re.findall(r"<doc:([^>#]+)", prose):
            if name not in articles:
                failures.append(f"{where}: <doc:{name}>: no article {name}.md in its catalog")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("flipbook")
    ap.add_argument("--page", action="append", default=[], help="only pages whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the pages' folders")
    ap.add_argument("--installed", action="store_true", help="FLIPBOOK is installed; run as a user without a clone")
    ap.add_argument("--user", metavar="INSTALLED",
                    help="an installed Flipbook: the commands that do not name this repository run with it, as a "
                         "user without a clone runs them; the rest with FLIPBOOK")
    args = ap.parse_args()
    if args.installed and args.user:
        ap.error("--installed runs FLIPBOOK as installed; --user runs INSTALLED beside it: give one")
    work = tempfile.mkdtemp(prefix="flipbook-docs-")

    def shim(binary, name):
        """A folder whose `flipbook` runs `binary`, to put first on PATH."""
        shims = os.path.join(work, name)
        os.makedirs(shims)
        with open(os.path.join(shims, "flipbook"), "w") as out:
            out.write(f'#!/bin/sh\nexec "{os.path.abspath(binary)}" "$@"\n')
        os.chmod(os.path.join(shims, "flipbook"), 0o755)
        return shims

    path = "/usr/bin:/bin" if args.installed else os.environ["PATH"]
    env = dict(os.environ, PATH=shim(args.flipbook, "bin") + os.pathsep + path)
    env.pop("FLIPBOOK_RECORD", None)
    user_env = None
    if args.user:
        home = os.path.join(work, "home")
        os.makedirs(home)
        user_env = {"HOME": home, "LANG": "C.UTF-8", "PATH": shim(args.user, "user-bin") + ":/usr/bin:/bin"}
    failures, not_run = [], []

    def run_page(path):
        """Runs one page's blocks in a folder of its own; returns its log and the blocks it ran."""
        name = os.path.relpath(path, ROOT)
        log, ran = [name], 0
        folder = os.path.join(work, name.replace("/", "_"))
        os.makedirs(folder)
        link = os.path.join(folder, "Assets")
        if not args.installed:
            os.symlink(os.path.join(ROOT, "Assets"), link)

        def env_for(command):
            """The environment `command` runs in; with --user, `Assets` is there only for a clone's."""
            if not args.user:
                return env
            if names_clone(command):
                if not os.path.lexists(link):
                    os.symlink(os.path.join(ROOT, "Assets"), link)
                return env
            if os.path.islink(link):
                os.unlink(link)
            return user_env
        for line, language, kind, value, text in blocks(path):
            where = f"{name}:{line}"
            if kind == "needs":
                not_run.append(f"{where}: {value}")
            elif kind == "file":
                target = os.path.join(folder, value)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w") as out:
                    out.write(text)
            elif kind == "part-of":
                if not args.installed:
                    part_of(text, value, failures, where)
                    ran += 1
            elif language == "text":
                if text.startswith("$ "):
                    transcript(text, folder, env_for(text.split("\n", 1)[0][2:]), failures, where, log)
                    ran += 1
            elif language == "sh":
                for command in commands(text):
                    run_command(command, folder, env_for(command), failures, where, log, args.installed)
                    ran += 1
            else:
                failures.append(f"{where}: a ```{language} block the docs test cannot run: give it a "
                                "<!-- file: … -->, <!-- part-of: … --> or <!-- needs: … --> line, or make it ```text")
        return log, ran

    chosen = [p for p in pages() if not args.page or any(n in os.path.relpath(p, ROOT) for n in args.page)]
    for path in [] if args.installed else pages():
        check_links(path, failures)
    ran = 0
    try:
        # Two pages at a time: most of a page's commands keep one core busy.
        with ThreadPoolExecutor(max_workers=2) as pool:
            for log, count in pool.map(run_page, chosen):
                print("\n".join(log))
                ran += count
    finally:
        if args.keep:
            print(f"pages' folders kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    for item in not_run:
        print(f"not run: {item}")
    if failures:
        print(f"docs: {len(failures)} failures", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        sys.exit(1)
    print(f"docs: {ran} commands and blocks ran as written; {len(not_run)} blocks need what a test run lacks")


if __name__ == "__main__":
    main()
