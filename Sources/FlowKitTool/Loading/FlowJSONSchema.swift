import FlowKit

/// The JSON Schema (draft 2020-12) of the flow format, printed by `flowkit schema` for editors.
///
/// It checks the shape of a document only: names, types, targets and the keys a step may have.
/// Whether the steps and events it names exist, and what the expressions mean, is lint's work.
package enum FlowJSONSchema {
    /// The rules a step's `lint.allow` may name, as a JSON list on one line.
    private static let suppressibleRules: String = {
        let names = Linter.rules.map { $0.description.identifier }.filter { !Linter.unsuppressible.contains($0) }
        return "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }()

    /// The schema as pretty-printed JSON text.
    package static let text: String = template.replacing("\"SUPPRESSIBLE_RULES\"", with: suppressibleRules)
        .replacing("    \"RESULT_TYPES\": {},\n", with: resultTypes)

    /// The type of a key in a result shape, one definition a level, so that the schema rejects a shape nested
    /// deeper than `FlowDecoder.maxShapeDepth` as lint does: `resultTypeN` is the type of a key of a level N - 1
    /// mapping (the result mapping is level 1), which may itself be a level N mapping up to the limit.
    private static let resultTypes: String = {
        let limit = FlowDecoder.maxShapeDepth
        var lines: [String] = []
        for level in 2...limit {
            lines += [
                "\"resultType\(level)\": {",
                "  \"description\": \"The type of a result key: a state type, or a nested object of key to type (read as `result.user.name`); a result nests at most \(limit) levels, the result mapping included (this is level \(level)).\",",
                "  \"oneOf\": [",
                "    {",
                "      \"$ref\": \"#/$defs/type\"",
                "    },",
                "    {",
                "      \"type\": \"object\",",
                "      \"description\": \"A nested result: key to type.\",",
                "      \"propertyNames\": {",
                "        \"$ref\": \"#/$defs/identifier\"",
                "      },",
                "      \"additionalProperties\": {",
                "        \"$ref\": \"#/$defs/resultType\(level + 1)\"",
                "      }",
                "    }",
                "  ]",
                "},",
            ]
        }
        lines += [
            "\"resultType\(limit + 1)\": {",
            "  \"description\": \"The type of a result key at level \(limit + 1): a state type only, as a result nests at most \(limit) levels.\",",
            "  \"$ref\": \"#/$defs/type\"",
            "},",
        ]
        // At the indentation of the other definitions.
        return lines.map { "    " + $0 + "\n" }.joined()
    }()

    /// The schema, with a placeholder for the rules `lint.allow` may name (they come from `Linter.rules`).
    private static let template: String = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://flowkit.dev/schema/flow-1.json",
      "title": "flowkit flow",
      "description": "A flow file of flowkit, format version 1: the steps of an app flow, the events that move between them and the state they collect. The same document may be written as JSON or as YAML 1.2.",
      "type": "object",
      "required": [
        "flowkit",
        "flow",
        "start",
        "steps"
      ],
      "additionalProperties": false,
      "properties": {
        "$schema": {
          "type": "string",
          "description": "The schema this document is written against, for editors; accepted and ignored by flowkit."
        },
        "flowkit": {
          "const": 1,
          "description": "The format version. Always 1."
        },
        "flow": {
          "$ref": "#/$defs/identifier",
          "description": "The flow's name."
        },
        "title": {
          "$ref": "#/$defs/text",
          "description": "A human-readable name of the flow, shown in diagrams."
        },
        "description": {
          "$ref": "#/$defs/text",
          "description": "Free text about the flow, for readers; flowkit ignores it."
        },
        "start": {
          "$ref": "#/$defs/identifier",
          "description": "The name of the first step. Also where a `restart` target goes."
        },
        "state": {
          "type": "object",
          "description": "The data the flow collects: state key to type. A trailing `?` marks a key that may stay unset; a list of names is an enum.",
          "propertyNames": {
            "$ref": "#/$defs/identifier"
          },
          "additionalProperties": {
            "$ref": "#/$defs/type"
          }
        },
        "inputs": {
          "type": "array",
          "description": "State keys a run that begins at `start` is given by the host app, a parent flow's `input` or a script's `start.state`. A non-optional input is required.",
          "items": {
            "$ref": "#/$defs/identifier"
          },
          "uniqueItems": true
        },
        "events": {
          "type": "object",
          "description": "Every event that a step handles, in evaluation order. `null` (an empty YAML value) declares an event that a step raises itself; an expression declares a derived event, raised when a step that handles it completes and the expression holds.",
          "propertyNames": {
            "$ref": "#/$defs/identifier"
          },
          "additionalProperties": {
            "$ref": "#/$defs/expression"
          }
        },
        "entries": {
          "type": "object",
          "description": "Deep links into the flow: entry name to the step it opens and its URL path.",
          "propertyNames": {
            "$ref": "#/$defs/identifier"
          },
          "additionalProperties": {
            "$ref": "#/$defs/entry"
          }
        },
        "steps": {
          "type": "object",
          "description": "The steps: step name to step. The step named `*` holds `on` and `next` handlers that apply to every step; a step's own handler for the same event wins.",
          "propertyNames": {
            "anyOf": [
              {
                "$ref": "#/$defs/identifier"
              },
              {
                "const": "*"
              }
            ]
          },
          "properties": {
            "*": {
              "anyOf": [
                {
                  "$ref": "#/$defs/anyStep"
                },
                {
                  "type": "null"
                }
              ]
            }
          },
          "additionalProperties": {
            "anyOf": [
              {
                "$ref": "#/$defs/step"
              },
              {
                "type": "null",
                "description": "An empty step: a screen with nothing else."
              }
            ]
          }
        }
      },
      "$defs": {
        "text": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "description": "Text for readers; a number or a boolean is shown as written."
        },
        "optionalTargetList": {
          "description": "A target list, or `null`: no target, as when the key is left out.",
          "anyOf": [
            {
              "$ref": "#/$defs/targetList"
            },
            {
              "type": "null"
            }
          ]
        },
        "handlers": {
          "type": "object",
          "description": "Event handlers: event name to target.",
          "propertyNames": {
            "$ref": "#/$defs/identifier"
          },
          "additionalProperties": {
            "$ref": "#/$defs/targetList"
          }
        },
        "anyStep": {
          "type": "object",
          "description": "The step named `*`: `on` and `next` handlers that apply to every step that has none of its own.",
          "additionalProperties": false,
          "properties": {
            "on": {
              "$ref": "#/$defs/handlers"
            },
            "next": {
              "$ref": "#/$defs/optionalTargetList",
              "description": "The target taken when a step without a `next` of its own completes and no handled event was raised."
            }
          }
        },
        "identifier": {
          "type": "string",
          "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
          "description": "A name: an ASCII letter or `_`, then letters, digits or `_`."
        },
        "type": {
          "description": "A state type: `int`, `number`, `string` or `bool`, optionally followed by `?` (optional), or a non-empty list of unique names (an enum).",
          "oneOf": [
            {
              "type": "string",
              "pattern": "^(int|number|string|bool)\\??$",
              "description": "A basic type; a trailing `?` makes it optional."
            },
            {
              "$ref": "#/$defs/enum"
            }
          ]
        },
        "enum": {
          "type": "array",
          "description": "An enum: the list of its values, each a non-empty string.",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "type": "string",
            "minLength": 1
          }
        },
        "RESULT_TYPES": {},
        "expression": {
          "description": "An expression: text in flowkit's expression language (`state.amount < 100`, `'economy'`, `exists(state.note)`), or a boolean, number or null literal.",
          "type": [
            "string",
            "boolean",
            "number",
            "null"
          ]
        },
        "assignments": {
          "type": "object",
          "description": "State key to expression. All expressions see the state before the assignments (they are simultaneous).",
          "propertyNames": {
            "$ref": "#/$defs/identifier"
          },
          "additionalProperties": {
            "$ref": "#/$defs/expression"
          }
        },
        "entry": {
          "type": "object",
          "description": "A deep link into the flow. A run started here has the step alone on its history.",
          "required": [
            "step",
            "path"
          ],
          "additionalProperties": false,
          "properties": {
            "step": {
              "$ref": "#/$defs/identifier",
              "description": "The step the entry opens."
            },
            "path": {
              "type": "string",
              "pattern": "^/",
              "description": "The URL path of the link, starting with `/`. Each `{key}` segment binds the state key of that name, converted to its declared type (for an entry into a nested flow, the nested entry's parameter)."
            },
            "entry": {
              "$ref": "#/$defs/identifier",
              "description": "With a `flow` step: the entry of its nested flow to start at."
            }
          }
        },
        "target": {
          "description": "Where a transition goes: a step name (forward to it), or an object with exactly one of `forward`, `back` or `restart`, optionally guarded by `if` and with `set`.",
          "anyOf": [
            {
              "$ref": "#/$defs/identifier",
              "description": "Forward: push the named step on the history and show it."
            },
            {
              "type": "object",
              "description": "A target in long form.",
              "additionalProperties": false,
              "properties": {
                "forward": {
                  "$ref": "#/$defs/identifier",
                  "description": "Push the named step on the history and show it."
                },
                "back": {
                  "description": "`true`: pop the current step off the history. A step name: pop the history back to that step's latest visit and show it again.",
                  "anyOf": [
                    {
                      "$ref": "#/$defs/identifier"
                    },
                    {
                      "const": true
                    }
                  ]
                },
                "restart": {
                  "const": true,
                  "description": "Clear the history and the state back to the initial ones and show `start`."
                },
                "if": {
                  "$ref": "#/$defs/expression",
                  "description": "A guard: the target is taken only when this expression holds."
                },
                "set": {
                  "$ref": "#/$defs/assignments",
                  "description": "State updates applied when this target is taken (state key to expression)."
                }
              },
              "oneOf": [
                {
                  "required": [
                    "forward"
                  ]
                },
                {
                  "required": [
                    "back"
                  ]
                },
                {
                  "required": [
                    "restart"
                  ]
                }
              ]
            }
          ]
        },
        "targetList": {
          "description": "A target, or a list of targets of which the first whose `if` holds (or that has none) is taken.",
          "anyOf": [
            {
              "$ref": "#/$defs/target"
            },
            {
              "type": "array",
              "description": "Guarded options, tried in order.",
              "minItems": 1,
              "items": {
                "$ref": "#/$defs/target"
              }
            }
          ]
        },
        "lint": {
          "type": "object",
          "description": "Lint settings for this step.",
          "additionalProperties": false,
          "required": [
            "allow",
            "reason"
          ],
          "properties": {
            "allow": {
              "description": "Rule identifiers whose findings about this step are silenced: one, or a list.",
              "anyOf": [
                {
                  "$ref": "#/$defs/suppressibleRule"
                },
                {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/suppressibleRule"
                  }
                }
              ]
            },
            "reason": {
              "type": "string",
              "pattern": "\\S",
              "description": "Why the rules are silenced, for readers; required with `allow`."
            }
          }
        },
        "suppressibleRule": {
          "enum": "SUPPRESSIBLE_RULES",
          "description": "A lint rule identifier, such as `unreachable_step` (not `syntax`, `schema` or `duplicate_key`, which cannot be silenced)."
        },
        "step": {
          "type": "object",
          "description": "A step of the flow: a screen, an action, a nested flow or a finish.",
          "additionalProperties": false,
          "properties": {
            "kind": {
              "enum": [
                "screen",
                "action",
                "flow",
                "finish"
              ],
              "description": "`screen` (the default): shown to the user. `action`: work such as a network call. `flow`: runs a nested flow to its end. `finish`: ends the flow."
            },
            "title": {
              "$ref": "#/$defs/text",
              "description": "A label for diagrams."
            },
            "description": {
              "$ref": "#/$defs/text",
              "description": "Free text about the step, for readers; flowkit ignores it."
            },
            "result": {
              "type": "object",
              "description": "The shape of the result the step completes with: key to type. Expressions of this step read it as `result.key`.",
              "propertyNames": {
                "$ref": "#/$defs/identifier"
              },
              "additionalProperties": {
                "$ref": "#/$defs/resultType2"
              }
            },
            "set": {
              "$ref": "#/$defs/assignments",
              "description": "The reducer: state key to expression, applied when the step completes with a result. Expressions see `result` and the state before the step."
            },
            "on": {
              "$ref": "#/$defs/handlers"
            },
            "next": {
              "$ref": "#/$defs/optionalTargetList",
              "description": "The target taken when the step completes and no handled event was raised."
            },
            "outcome": {
              "$ref": "#/$defs/identifier",
              "description": "On a `finish` step: the flow's outcome (default: the step's name). A parent flow handles it as an event."
            },
            "flow": {
              "type": "string",
              "description": "On a `flow` step: the nested flow file, as a path relative to this file (lint's `subflow_missing` checks that it is one)."
            },
            "input": {
              "type": "object",
              "description": "On a `flow` step: the nested flow's initial state, child state key to expression over this flow's state.",
              "propertyNames": {
                "$ref": "#/$defs/identifier"
              },
              "additionalProperties": {
                "$ref": "#/$defs/expression"
              }
            },
            "lint": {
              "$ref": "#/$defs/lint",
              "description": "Lint settings for this step."
            }
          },
          "allOf": [
            {
              "if": {
                "properties": {
                  "kind": {
                    "const": "flow"
                  }
                },
                "required": [
                  "kind"
                ]
              },
              "then": {
                "required": [
                  "flow"
                ]
              },
              "else": {
                "properties": {
                  "flow": false,
                  "input": false
                }
              }
            },
            {
              "if": {
                "properties": {
                  "kind": {
                    "const": "finish"
                  }
                },
                "required": [
                  "kind"
                ]
              },
              "then": true,
              "else": {
                "properties": {
                  "outcome": false
                }
              }
            }
          ]
        }
      }
    }
    """#
}
