"""Writes large.json (1,000 questions x 50 options) and large.answers.json (every question
answered) into the folder given as the first argument. Used by benches/scripted.sh."""
import json, sys
work = sys.argv[1]
qs, answers = [], {}
for i in range(1000):
    kind = ["single", "multi", "preview"][i % 3]
    opts = []
    for j in range(50):
        o = {"value": f"o{j}", "label": f"Option {j}"}
        if j % 10 == 0:
            o["description"] = f"What option {j} means for question {i}."
        if kind == "preview":
            o["preview"] = f"preview {j}\nline 2"
        opts.append(o)
    qs.append({"id": f"q{i}", "label": f"Question {i}", "prompt": f"What about topic {i}?",
               "type": kind, "options": opts})
    if kind == "multi":
        answers[f"q{i}"] = {"values": [f"o{k}" for k in (40, 3, 17)], "customText": f"my own {i}",
                            "optionNotes": {"o3": "note"}}
    elif kind == "single" and i % 2:
        answers[f"q{i}"] = {"customText": f"free text {i}", "note": "a note"}
    else:
        answers[f"q{i}"] = f"#{(i % 50) + 1}"
json.dump({"title": "Large", "questions": qs}, open(f"{work}/large.json", "w"))
json.dump({"answers": answers}, open(f"{work}/large.answers.json", "w"))
