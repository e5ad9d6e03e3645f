#!/usr/bin/env python3
"""The scene-file JSON Schema, checked with a standard validator (python-jsonschema, draft-07).

Usage: scene_schema_test.py FLIPBOOK

- `flipbook scene --schema` is Assets/scene.schema.json byte for byte (the file editors point
  at cannot drift from the format the loader reads);
- the schema is a valid draft-07 schema;
- every shipped scene file (the built-ins, the examples, the guide's example) validates;
- files with a mistake in each part of the format are rejected, each at the place of the mistake.
YAML is read as YAML 1.2 reads it (only true and false are flags), as the YAML language server does.
"""
import copy, json, pathlib, re, subprocess, sys

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
flipbook = sys.argv[1]
failures = 0


def check(ok, what):
    global failures
    print(("ok: " if ok else "FAILED: ") + what)
    failures += 0 if ok else 1


class Yaml12Loader(yaml.SafeLoader):
    pass


# YAML 1.1's yes/no/on/off are plain text in YAML 1.2 (a param may be called `on`).
Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in Yaml12Loader.yaml_implicit_resolvers.copy().items()
}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load(text):
    return yaml.load(text, Loader=Yaml12Loader)


printed = subprocess.run([flipbook, "scene", "--schema"], capture_output=True, text=True, check=True).stdout
committed = (ROOT / "Assets/scene.schema.json").read_text()
check(printed == committed, "Assets/scene.schema.json is what flipbook scene --schema prints")
schema = json.loads(printed)
jsonschema.Draft7Validator.check_schema(schema)
check(True, "the schema is a valid draft-07 schema")
validator = jsonschema.Draft7Validator(schema)

scenes = {}
for path in sorted((ROOT / "Assets").glob("**/*.yaml")):
    if ".build" in path.parts:
        continue
    doc = load(path.read_text())
    if isinstance(doc, dict) and "storyboards" in doc and "version" in doc:
        scenes[str(path.relative_to(ROOT))] = doc
for page in [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/*.md")):
    for block in re.findall(r"```yaml\n(.*?)```", page.read_text(), re.S):
        doc = load(block)
        if isinstance(doc, dict) and "storyboards" in doc and "version" in doc:
            scenes[f"{page.relative_to(ROOT)}: {doc['name']}"] = doc
check(len(scenes) >= 6, f"{len(scenes)} scene files found: {', '.join(scenes)}")
for name, doc in scenes.items():
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    check(not errors, f"{name} validates" + "".join(f"\n  {list(e.path)}: {e.message[:200]}" for e in errors[:3]))

# Each mistake, made in a copy of expanding-view, must be rejected at its place.
base = scenes["Assets/expanding-view/expanding-view.yaml"]


def first_layer(doc):
    return next(iter(doc["layers"].values()))


def first_phase_steps(doc):
    phase = next(iter(doc["phases"].values()))
    return phase["steps"] if isinstance(phase, dict) else phase


mistakes = {
    "an unknown top-level key": lambda d: d.update(colour="red"),
    "a layer key misspelt (centre)": lambda d: first_layer(d).update(centre=[1, 2]),
    "a content mode that is not one": lambda d: first_layer(d).update(mode="aspectFit"),
    "a param without a doc": lambda d: d["params"]["statusBarHeight"].pop("doc"),
    "a param type misspelt (nubmer)": lambda d: d["params"].update(
        statusBarHeight={"nubmer": 20, "doc": "the status bar"}),
    "a colour default that is not #RRGGBB": lambda d: d["params"].update(
        buttonColor={"color": "orange", "doc": "the button"}),
    "an animate step with a misspelt key (delya)": lambda d: first_phase_steps(d).append(
        {"animate": "easeIn(0.3)", "delya": 0.1, "pose": "x"}),
    "a hold with a second key": lambda d: first_phase_steps(d).append({"hold": 1, "then": []}),
    "a drag without from": lambda d: first_phase_steps(d).append(
        {"drag": {"moves": [], "axis": "y", "distance": 10}}),
    "a move with a misspelt key (ovr)": lambda d: first_phase_steps(d).append(
        {"drag": {"from": [0, 0], "moves": [{"by": [0, 1], "ovr": 1}], "axis": "y", "distance": 10}}),
    "no storyboards": lambda d: d.update(storyboards={}),
    "a version other than 1": lambda d: d.update(version=2),
}
for what, mistake in mistakes.items():
    doc = copy.deepcopy(base)
    mistake(doc)
    errors = list(validator.iter_errors(doc))
    check(bool(errors), f"rejected: {what}" + (f" ({errors[0].message[:120]})" if errors else ""))

print(f"{sum(1 for _ in scenes) + len(mistakes) + 2 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
