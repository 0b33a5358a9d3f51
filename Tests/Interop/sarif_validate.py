#!/usr/bin/env python3
"""Validates `warden audit --format sarif` against the SARIF 2.1.0 schema (Tests/Interop/sarif-schema-2.1.0-subset.json,
the OASIS schema reduced to the definitions a report reaches) with jsonschema's Draft 7 validator and format checks,
on the labelled sample app (findings in every rule family) and on a clean tree (no results). Negative controls prove
the validator rejects what GitHub code scanning would: an unknown result member, a bad level, a zero line.
usage: sarif_validate.py WARDEN"""
import copy
import json
import os
import subprocess
import sys
import tempfile

from jsonschema import Draft7Validator

WARDEN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
schema = json.load(open(os.path.join(HERE, "sarif-schema-2.1.0-subset.json")))
Draft7Validator.check_schema(schema)
validator = Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)
failures = 0
checks = 0


def sarif(path):
    run = subprocess.run([WARDEN, "audit", path, "--format", "sarif"], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"warden audit failed: {run.stderr}")
    return json.loads(run.stdout)


def expect(name, document, valid):
    global failures, checks
    checks += 1
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    if bool(errors) == valid:
        failures += 1
        detail = "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:3]) or "no error reported"
        print(f"FAIL {name}: expected {'valid' if valid else 'invalid'} ({detail})")


sample = sarif(os.path.join(HERE, "..", "WardenAuditTests", "Fixtures", "SampleApp"))
expect("sample app report", sample, True)
results = sample["runs"][0]["results"]
if len(results) < 20:
    failures += 1
    print(f"FAIL the sample app report has only {len(results)} results")
clean = tempfile.mkdtemp()
open(os.path.join(clean, "A.swift"), "w").write('let url = URL(string: "https://example.com")\n')
expect("clean tree report", sarif(clean), True)

bad = copy.deepcopy(sample)
bad["runs"][0]["results"][0]["severity"] = "high"
expect("unknown result member", bad, False)
bad = copy.deepcopy(sample)
bad["runs"][0]["results"][0]["level"] = "fatal"
expect("bad level", bad, False)
bad = copy.deepcopy(sample)
bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
expect("line 0", bad, False)
bad = copy.deepcopy(sample)
bad["runs"][0]["tool"]["driver"]["rules"][0]["properties"]["tags"] = ["security", "security"]
expect("duplicate tags", bad, False)
bad = copy.deepcopy(sample)
bad["runs"][0]["tool"]["driver"]["informationUri"] = "not a uri"
expect("informationUri not a URI", bad, False)

print(f"sarif: {checks} documents checked against SARIF 2.1.0: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
