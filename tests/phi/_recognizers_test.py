"""The sidecar's own recognizers (HL7_MRN, HL7_CARET_NAME, HL7_PHONE_BARE) and its regex-only
analyzer, checked with plain python3 (no Presidio needed). Run by tests/phi/sidecar.test.ts.
Prints one JSON line: {"passed": n, "failed": [...]}."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "phi", "sidecar"))
import server  # noqa: E402

rec = {r["entity"]: r for r in server.RECOGNIZERS}
failed = []
passed = 0


def check(name, cond):
    global passed
    if cond:
        passed += 1
    else:
        failed.append(name)


def hits(entity, text):
    return [m.group(0) for m in re.finditer(rec[entity]["regex"], text)]


# HL7_MRN: 6-12 digits, optional 1-3 capital prefix; not part of dates, versions, longer numbers.
check("mrn plain", hits("HL7_MRN", "MRN 1234567 seen") == ["1234567"])
check("mrn prefix", hits("HL7_MRN", "chart E12345678.") == ["E12345678"])
check("mrn too short", hits("HL7_MRN", "bed 12345") == [])
check("mrn in version", hits("HL7_MRN", "v1.1234567.2") == [])
check("mrn in path", hits("HL7_MRN", "/data/1234567/x") == [])
check("mrn too long", hits("HL7_MRN", "1234567890123") == [])

# HL7_CARET_NAME: LAST^FIRST[^MIDDLE] capitalised words.
check("caret name", hits("HL7_CARET_NAME", "pt DOE^JANE^Q arrived") == ["DOE^JANE^Q"])
check("caret mixed case", hits("HL7_CARET_NAME", "O'Brien^Pat") == ["O'Brien^Pat"])
check("caret not encoding chars", hits("HL7_CARET_NAME", "MSH|^~\\&|") == [])
check("caret not codes", hits("HL7_CARET_NAME", "ADT^A01") == [])
check("caret not lower", hits("HL7_CARET_NAME", "doe^jane") == [])

# HL7_PHONE_BARE: 10 digits, NANP shape (area and exchange start 2-9), not epoch seconds.
check("bare phone", hits("HL7_PHONE_BARE", "home 5552345678 ok") == ["5552345678"])
check("bare phone epoch", hits("HL7_PHONE_BARE", "ts 1700000000") == [])
check("bare phone 11 digits", hits("HL7_PHONE_BARE", "15552345678") == [])
check("bare phone exchange 1", hits("HL7_PHONE_BARE", "5551234567") == [])

# Context scoring in the regex-only analyzer: the low-score recognizers need a context word.
a = server.regex_analyze("id 1234567 and MRN 7654321, phone 5552345678, 5553456789 SMITH^JOHN")
found = [(e["entity_type"], e["start"], e["end"]) for e in a]
text = "id 1234567 and MRN 7654321, phone 5552345678, 5553456789 SMITH^JOHN"
values = [(t, text[s:e]) for t, s, e in found]
check("context mrn", ("HL7_MRN", "7654321") in values)
check("no context no mrn", ("HL7_MRN", "1234567") not in values)
check("context phone", ("HL7_PHONE_BARE", "5552345678") in values or ("HL7_MRN", "5552345678") in values)
check("caret found", ("HL7_CARET_NAME", "SMITH^JOHN") in values)
check("no overlaps", all(a[i]["end"] <= a[i + 1]["start"] for i in range(len(a) - 1)))
check("entity filter", all(e["entity_type"] == "US_SSN" for e in server.regex_analyze("SSN 123-45-6789 DOE^JANE", ["US_SSN"])))
check("ssn", [e["entity_type"] for e in server.regex_analyze("SSN 123-45-6789")] == ["US_SSN"])
# Offsets are code points (Python str indices).
t2 = "\U0001F600 DOE^JANE"
e2 = server.regex_analyze(t2)
check("code points", e2 and t2[e2[0]["start"]:e2[0]["end"]] == "DOE^JANE" and e2[0]["start"] == 2)

print(json.dumps({"passed": passed, "failed": failed}))
