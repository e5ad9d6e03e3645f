#!/usr/bin/env python3
"""Runs the guide's CI recipes (Sources/flipbook/Guide.docc/ManifestAndCI.md) as written, as far
as they run offline, as root on this machine.

Each workflow is read from the page (the YAML after its `<!-- file: .github/workflows/… -->`
line), and each job's `run:` steps run with bash in a checkout of a project of the test's own,
whose remote is a bare repository here. The test plays GitHub's part: the workflow's `env:`,
`${{ matrix.* }}`, and the actions (checkout clones the remote, the cache keeps its folder,
upload-artifact and download-artifact copy files between jobs). What it changes in the recipes:
FLIPBOOK_DEB is the `.deb` Scripts/package has just made (a file:// URL) and FLIPBOOK_SHA256 its
SHA-256, and the container's set-up step (apt-get update, then git, curl and certificates, which
this machine has) is skipped; every other line runs as written.

The story: a pull request's check with `PREVIEWS: fail` fails listing every output; with
`commit`, one commit of the previews reaches the branch and the next run finds them fresh. The
pull request merges, main changes so that every output is stale, and four shards each upload
only the outputs they render; the gather job finds them all fresh and pushes one commit.

Usage: /usr/bin/python3 Tests/CI/ci_recipes_test.py PACKAGE_DIR   (Scripts/package's output)
"""
import fnmatch, glob, hashlib, os, re, shutil, subprocess, sys, tempfile
import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
PAGE = os.path.join(ROOT, "Sources/flipbook/Guide.docc/ManifestAndCI.md")

MANIFEST = """\
defaults: {fps: 4, width: 64}
variants:
  pace: {slow: {speed: 0.5}, fast: {speed: 2}}
outputs:
  - path: previews/{scene}-{pace}.gif
    scene: [expanding-view, expanding-cells]
    variants: [pace]
"""
OUTPUTS = sorted(f"previews/{s}-{p}.gif" for s in ("expanding-view", "expanding-cells") for p in ("slow", "fast"))


def fail(message):
    sys.exit(f"ci recipes: {message}")


def workflows():
    """Each workflow file the page writes, by its path: its YAML, parsed."""
    text = open(PAGE).read()
    found = {}
    for m in re.finditer(r"<!-- file: (\.github/workflows/[^ ]+) -->\n```yaml\n(.*?)```", text, re.S):
        found[m.group(1)] = yaml.safe_load(m.group(2))
    return found


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class Play:
    """GitHub's part: the remote, the cache's home, the artifacts and the environment."""

    def __init__(self, tmp, deb):
        self.tmp = tmp
        self.origin = os.path.join(tmp, "origin.git")
        self.home = os.path.join(tmp, "home")
        os.makedirs(self.home)
        self.deb_url = "file://" + deb
        self.deb_sha = hashlib.sha256(open(deb, "rb").read()).hexdigest()
        self.artifacts = {}
        self.uploaded = {}

    def env(self, workflow, extra):
        env = {"HOME": self.home, "LANG": "C.UTF-8", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
               "DEBIAN_FRONTEND": "noninteractive"}
        env.update({k: str(v) for k, v in workflow.get("env", {}).items()})
        # The download is the package just made, checked against its own SHA-256.
        env["FLIPBOOK_DEB"], env["FLIPBOOK_SHA256"] = self.deb_url, self.deb_sha
        env.update(extra)
        return env

    def job(self, workflow, name, branch, matrix=None, extra=None):
        """Runs one job of `workflow` on `branch`; returns (exit status, its output)."""
        job = workflow["jobs"][name]
        work = tempfile.mkdtemp(dir=self.tmp, prefix=f"{name}-")
        env = self.env(workflow, extra or {})
        log = []

        def expand(text):
            text = str(text)
            for key, value in (matrix or {}).items():
                text = text.replace("${{ matrix.%s }}" % key, str(value))
            if "${{" in text and "github." not in text and "env." not in text:
                fail(f"an expression this test does not play: {text}")
            return text

        for step in job["steps"]:
            uses, given = step.get("uses"), {k: expand(v) for k, v in (step.get("with") or {}).items()}
            if uses is None:
                script = expand(step["run"])
                # The container's set-up: this machine has git, curl and certificates, and is offline.
                if script.startswith("apt-get update -qq && apt-get install -y -qq git ca-certificates curl"):
                    continue
                done = subprocess.run(["bash", "-e", "-c", script], cwd=work, env=env, capture_output=True, text=True)
                log.append(done.stdout + done.stderr)
                if done.returncode != 0:
                    return done.returncode, "".join(log)
            elif uses.startswith("actions/checkout@"):
                shutil.rmtree(work)
                git("clone", "-q", "-b", branch, self.origin, work)
            elif uses.startswith("actions/cache@"):
                pass  # the home folder, and so the cache's, is kept from job to job
            elif uses.startswith("actions/upload-artifact@"):
                source = os.path.join(work, given["path"])
                files = [f for f in glob.glob(source + "/**", recursive=True) if os.path.isfile(f)]
                self.uploaded[given["name"]] = sorted(os.path.relpath(f, source) for f in files)
                if files:
                    self.artifacts[given["name"]] = shutil.copytree(source, os.path.join(self.tmp, "artifacts", given["name"]))
                elif str(given.get("if-no-files-found")) != "ignore":
                    fail(f"{given['name']}: no files to upload")
            elif uses.startswith("actions/download-artifact@"):
                if str(given.get("merge-multiple")).lower() != "true":
                    fail("download-artifact without merge-multiple")
                for artifact, folder in self.artifacts.items():
                    if fnmatch.fnmatch(artifact, given["pattern"]):
                        shutil.copytree(folder, os.path.join(work, given["path"]), dirs_exist_ok=True)
            else:
                fail(f"an action this test does not play: {uses}")
        return 0, "".join(log)


def main():
    if len(sys.argv) != 2:
        fail("usage: ci_recipes_test.py PACKAGE_DIR")
    debs = glob.glob(os.path.join(os.path.abspath(sys.argv[1]), "flipbook_*_amd64.deb"))
    if len(debs) != 1:
        fail(f"expected one .deb in {sys.argv[1]}, found {debs}")
    found = workflows()
    check, sharded = found.get(".github/workflows/previews.yml"), found.get(".github/workflows/previews-sharded.yml")
    if not check or not sharded:
        fail(f"the page's workflows are {sorted(found)}")
    tmp = tempfile.mkdtemp(prefix="flipbook-ci-")
    try:
        play = Play(tmp, debs[0])
        # The project: a manifest on main and on a pull request's branch, no previews yet.
        git("init", "-q", "--bare", "-b", "main", play.origin)
        seed = os.path.join(tmp, "seed")
        git("clone", "-q", play.origin, seed)
        open(os.path.join(seed, "flipbook.yaml"), "w").write(MANIFEST)
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start", cwd=seed)
        git("add", "flipbook.yaml", cwd=seed)
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a manifest", cwd=seed)
        git("push", "-q", "origin", "main", "main:feature", cwd=seed)

        def head(branch):
            return git("rev-parse", branch, cwd=play.origin).strip()

        def tree(branch):
            return sorted(git("ls-tree", "-r", "--name-only", branch, "previews", cwd=play.origin).split())

        # A pull request's check, failing: every output listed, nothing pushed.
        before = head("feature")
        status, out = play.job(check, "previews", "feature", extra={"PREVIEWS": "fail"})
        if status == 0 or any(f"missing: {o}" not in out for o in OUTPUTS):
            fail(f"PREVIEWS: fail passed, or did not list every output:\n{out}")
        if head("feature") != before:
            fail("PREVIEWS: fail pushed a commit")
        # Committing: one commit with every preview; then fresh, nothing more.
        status, out = play.job(check, "previews", "feature", extra={"PREVIEWS": "commit"})
        if status != 0:
            fail(f"PREVIEWS: commit failed:\n{out}")
        if git("rev-list", "--count", f"{before}..feature", cwd=play.origin).strip() != "1" or tree("feature") != OUTPUTS:
            fail(f"PREVIEWS: commit did not push one commit of {OUTPUTS}: {tree('feature')}")
        after = head("feature")
        status, out = play.job(check, "previews", "feature", extra={"PREVIEWS": "commit"})
        if status != 0 or head("feature") != after or "4 outputs are up to date" not in out:
            fail(f"a second run was not fresh:\n{out}")
        print("ci recipes: previews.yml: fail lists 4 missing outputs; commit pushes 1 commit of 4; then fresh")

        # The pull request merges; then main changes so that every output is stale, and the
        # sharded build renders each once, in four shares, and pushes one commit.
        git("fetch", "-q", "origin", cwd=seed)
        git("merge", "-q", "--ff-only", "origin/feature", cwd=seed)
        text = open(os.path.join(seed, "flipbook.yaml")).read().replace("fps: 4", "fps: 5")
        open(os.path.join(seed, "flipbook.yaml"), "w").write(text)
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "five frames a second", cwd=seed)
        git("push", "-q", "origin", "main", cwd=seed)
        start = head("main")
        shards = sharded["jobs"]["shard"]["strategy"]["matrix"]["shard"]
        for shard in shards:
            status, out = play.job(sharded, "shard", "main", matrix={"shard": shard})
            if status != 0:
                fail(f"shard {shard} failed:\n{out}")
        uploaded = sorted(f for files in play.uploaded.values() for f in files)
        if uploaded != OUTPUTS or len(play.uploaded) != len(shards):
            fail(f"the shards uploaded {play.uploaded}, where every output once was expected")
        status, out = play.job(sharded, "gather", "main")
        if status != 0 or "4 outputs are up to date" not in out:
            fail(f"the gather job failed, or its check did not find every output fresh:\n{out}")
        if git("rev-list", "--count", f"{start}..main", cwd=play.origin).strip() != "1":
            fail("the gather job did not push one commit")
        changed = sorted(git("diff", "--name-only", start, "main", cwd=play.origin).split())
        if changed != OUTPUTS:
            fail(f"the gather's commit changed {changed}, not {OUTPUTS}")
        print(f"ci recipes: previews-sharded.yml, every output stale: {len(shards)} shards uploaded "
              f"{', '.join(str(len(f)) for f in play.uploaded.values())} files; 1 commit of {len(changed)} pushed")
    finally:
        subprocess.run(["apt-get", "remove", "--purge", "-y", "-qq", "flipbook"], capture_output=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        shutil.rmtree(tmp, ignore_errors=True)
    print("ci recipes: both workflows ran as written")


if __name__ == "__main__":
    main()
