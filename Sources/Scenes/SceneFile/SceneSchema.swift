import Foundation
import Planner

/// The scene-file format as a JSON Schema (draft-07), derived from `SceneFormat`'s lists as the
/// reference is: an editor with the YAML language server completes keys and shows each one's
/// doc from it. It says the format's shape (which keys go where, what kind of value); the
/// whole-file check and the interpreter say the rest (names, expressions, ranges).
public enum SceneSchema {
    /// The schema, as pretty-printed JSON with sorted keys (the same bytes every time).
    public static func json() -> String {
        let data = try! JSONSerialization.data(
            withJSONObject: schema(), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    typealias Object = [String: Any]

    static func ref(_ name: String) -> Object { ["$ref": "#/definitions/\(name)"] }

    static func described(_ schema: Object, _ doc: String) -> Object {
        // Beside a $ref, draft-07 ignores other keywords: the doc goes on a wrapper.
        var s = schema["$ref"] != nil ? ["allOf": [schema]] : schema
        s["description"] = doc
        s["markdownDescription"] = doc
        return s
    }

    /// An object whose keys are `keys`, each with its doc and the schema `value(key)` gives.
    static func object(
        _ keys: [SceneFormat.Key], required: [String] = [], closed: Bool = true, value: (String) -> Object
    ) -> Object {
        var properties: Object = [:]
        for k in keys { properties[k.name] = described(value(k.name), k.doc) }
        var out: Object = ["type": "object", "properties": properties]
        if !required.isEmpty { out["required"] = required }
        if closed { out["additionalProperties"] = false }
        return out
    }

    static func schema() -> Object {
        let top = object(SceneFormat.topLevel, required: ["version", "name", "summary", "storyboards"]) { key in
            switch key {
            case "version": return ["const": SceneFormat.version]
            case "name", "summary": return ["type": "string", "minLength": 1]
            case "settings": return ref("settings")
            case "params": return ref("params")
            case "let": return ["type": "object", "additionalProperties": ref("value")]
            case "require":
                return [
                    "type": "array",
                    "items": object(SceneFormat.requireKeys, required: ["that", "key", "message"]) { _ in ref("value")
                    },
                ]
            case "templates": return ["type": "object", "additionalProperties": ref("template")]
            case "layers": return ref("layers")
            case "poses": return ["type": "object", "additionalProperties": ref("pose")]
            case "phases": return ["type": "object", "additionalProperties": ref("phase")]
            case "storyboards":
                return ["type": "object", "minProperties": 1, "additionalProperties": ref("storyboard")]
            default: return [:]
            }
        }
        var out = top
        out["$schema"] = "http://json-schema.org/draft-07/schema#"
        out["title"] = "Flipbook scene file, version \(SceneFormat.version)"
        out["description"] =
            "A transition: its params, layers, poses, phases and storyboards (flipbook scene --reference)."
        out["definitions"] = definitions()
        return out
    }

    static func definitions() -> Object {
        var d: Object = [:]
        // A value is a number, text (an expression), a flag, or a list of values (a point, a rect).
        d["value"] = [
            "anyOf": [
                ["type": "number"], ["type": "string"], ["type": "boolean"], ["type": "array", "items": ref("value")],
            ]
        ]
        d["steps"] = ["type": "array", "items": ref("step")]
        d["changes"] = [
            "type": "object", "propertyNames": ["pattern": "^(pose|.+\\..+)$"],
            "properties": ["pose": ref("poses")], "additionalProperties": ref("value"),
        ]
        // `pose: name`, or a list of names and `name: {arg: value}`.
        let call: Object = [
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "additionalProperties": ["type": "object", "additionalProperties": ref("value")],
        ]
        d["poses"] = described(
            ["anyOf": [["type": "string"], call, ["type": "array", "items": ["anyOf": [["type": "string"], call]]]]],
            "poses to apply, by name or called with their arguments: `pose: [a, b: {arg: value}]`")
        d["settings"] = settings()
        d["params"] = [
            "type": "object", "description": "params and sections (a section: a mapping with a doc and params)",
            "additionalProperties": ref("paramOrSection"),
        ]
        d["paramOrSection"] = ["anyOf": [ref("param"), ref("section")]]
        d["section"] = [
            "type": "object", "required": ["doc"],
            "properties": ["doc": described(["type": "string"], "one line on what the section holds")],
            "additionalProperties": ref("paramOrSection"),
        ]
        d["param"] = ["anyOf": SceneFormat.paramTypes.map { param(type: $0) }]
        d["layers"] = [
            "type": "object", "description": "layers, bottom first; `for i in 1...3:` repeats the layers under it",
            "patternProperties": ["^for ": ref("layers")], "additionalProperties": ref("layer"),
        ]
        d["layer"] = layer(template: false)
        d["template"] = layer(template: true)
        d["pose"] = [
            "type": "object",
            "properties": ["args": described(["type": "array", "items": ["type": "string"]], "the pose's arguments")],
            "propertyNames": ["pattern": "^(args|.+\\..+)$"], "additionalProperties": ref("value"),
        ]
        d["phase"] = [
            "anyOf": [
                ref("steps"),
                object(SceneFormat.phaseKeys, required: ["steps"]) { key in
                    key == "args" ? ["type": "array", "items": ["type": "string"]] : ref("steps")
                },
            ]
        ]
        d["storyboard"] = [
            "anyOf": [
                ref("steps"),
                object(SceneFormat.storyboardKeys, required: ["steps"]) { key in
                    switch key {
                    case "let": ["type": "object", "additionalProperties": ref("value")]
                    case "length": ref("value")
                    default: ref("steps")
                    }
                },
            ]
        ]
        d["step"] = ["anyOf": steps()]
        d["gesture"] = object(SceneFormat.dragKeys, required: ["from", "moves", "axis", "distance"]) { key in
            key == "moves" ? ["type": "array", "items": ref("move")] : ref("value")
        }
        d["move"] = [
            "anyOf": [
                object(SceneFormat.moveKeys, required: ["by", "over"]) { _ in ref("value") },
                object([SceneFormat.Key("hold", "the finger still, in seconds")], required: ["hold"]) { _ in
                    ref("value")
                },
            ]
        ]
        d["crossing"] = object(SceneFormat.crossingKeys, required: ["at"]) { key in
            key == "at" ? ref("value") : ref("steps")
        }
        return d
    }

    static func settings() -> Object {
        let fields = SceneSettings.fields(\SceneParams.settings, storyboards: { _ in [] })
        var properties: Object = [:]
        for field in fields {
            if case .section(let children) = field.kind {
                var inner: Object = [:]
                for c in children { inner[c.key] = described(ref("value"), c.doc) }
                properties[field.key] = described(
                    ["type": "object", "properties": inner, "additionalProperties": false], field.doc)
            } else {
                properties[field.key] = described(ref("value"), field.doc)
            }
        }
        return ["type": "object", "properties": properties, "additionalProperties": false]
    }

    /// A param of `type`: that key holds the default, with a doc and the type's options.
    static func param(type: SceneFormat.Key) -> Object {
        let options = SceneFormat.paramOptions.filter { option in
            option.name == "doc" || (SceneParamKind(rawValue: type.name)?.options ?? []).contains(option.name)
        }
        var o = object(options, required: [type.name, "doc"]) { key in
            key == "doc" ? ["type": "string", "minLength": 1] : ref("value")
        }
        var properties = o["properties"] as! Object
        properties[type.name] = described(defaultValue(type.name), type.doc)
        o["properties"] = properties
        return o
    }

    /// What a param's default looks like, by its type.
    static func defaultValue(_ type: String) -> Object {
        switch type {
        case "number", "integer": return ["type": "number"]
        case "seconds": return ["anyOf": [["type": "number"], ["type": "string", "pattern": "^[0-9.eE+-]+ *m?s$"]]]
        case "flag": return ["type": "boolean"]
        case "color": return ["type": "string", "pattern": "^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"]
        case "rect": return ["type": "array", "minItems": 4, "maxItems": 4, "items": ref("value")]
        case "point": return ["type": "array", "minItems": 2, "maxItems": 2, "items": ref("value")]
        case "animation":
            // The animation's own config fields, so the schema and `flipbook config` agree.
            guard case .section(let parts) = ConfigField<SceneParams>.animation("a", \.[animation: "a"], "").kind else {
                return [:]
            }
            var keys = parts.map { SceneFormat.Key($0.key, $0.doc) }
            for part in parts {
                keys += part.aliases.map { SceneFormat.Key($0, "the former name of \(part.key)") }
            }
            return object(keys) { key in
                key == "curve" ? ["type": "string"] : ["anyOf": [["type": "number"], ["type": "string"]]]
            }
        default: return ["type": "string"]
        }
    }

    static func layer(template: Bool) -> Object {
        var keys = SceneFormat.layerKeys
        if template {
            keys = keys.filter { $0.name != "use" && $0.name != "with" }
            keys.insert(SceneFormat.Key("args", "the template's arguments, given by `with:`"), at: 0)
        }
        return object(keys) { key in
            switch key {
            case "children": return ref("layers")
            case "with": return ["type": "object", "additionalProperties": ref("value")]
            case "args": return ["type": "array", "items": ["type": "string"]]
            case "mode": return ["enum": ContentMode.allCases.map(\.rawValue)]
            default: return ref("value")
            }
        }
    }

    /// One schema per step kind, then a phase by name or called with its arguments.
    static func steps() -> [Object] {
        var out: [Object] = []
        for kind in StepKind.allCases {
            let keys = kind.keys
            var properties: Object = [:]
            for (key, holds) in kind.fields {
                let doc = key == kind.rawValue ? kind.doc : "part of `\(kind.rawValue)`"
                let value: Object
                switch holds {
                case .steps: value = ref("steps")
                case .changes: value = ref("changes")
                case .values: value = ["type": "object", "additionalProperties": ref("value")]
                case .gesture: value = ref("gesture")
                case .crossing: value = ref("crossing")
                case .value: value = ref("value")
                }
                properties[key] = described(value, doc)
            }
            if kind.takesChanges { properties["pose"] = ref("poses") }
            var s: Object = ["type": "object", "required": [kind.rawValue], "properties": properties]
            if kind.takesChanges {
                s["additionalProperties"] = ref("value")
                s["propertyNames"] = ["pattern": "^(\(keys.joined(separator: "|"))|pose|.+\\..+)$"]
            } else {
                s["additionalProperties"] = false
            }
            out.append(s)
        }
        out.append(described(["type": "string"], "a phase, by name"))
        out.append(
            described(
                [
                    "type": "object", "minProperties": 1, "maxProperties": 1,
                    "propertyNames": ["not": ["enum": StepKind.names]],
                    "additionalProperties": ["type": "object", "additionalProperties": ref("value")],
                ], "a phase called with its arguments: `PHASE: {arg: value}`"))
        return out
    }
}
