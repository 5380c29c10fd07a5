#!/usr/bin/env python3
"""assist PHI sidecar: free-text PHI detection (tier 5) on 127.0.0.1.

Shipped with assist; `/phi-sidecar ensure` installs Presidio into $ASSIST_HOME/phi-venv and
`/phi-sidecar start` runs this file with the system python3, which re-executes itself with the
venv's interpreter when the venv exists. Without Presidio it still serves, with its own regex
recognizers only ("engine": "regex").

Protocol (JSON; offsets are [start, end) in Unicode code points):
  GET  /health    -> {"status": "ok", "engine": "presidio"|"regex", "pid": int, "version": str,
                      "python": str, "entities": [str, ...]}
  POST /redact    {"text": str, "language": "en", "entities"?: [str], "score_threshold"?: float}
                  -> {"entities": [{"entity_type": str, "start": int, "end": int, "score": float}]}
  POST /shutdown  -> {"status": "stopping"}
Errors: 4xx/5xx with {"error": str}. The server only detects; assist mints the tokens.

Commands:
  server.py serve  --port N [--venv DIR] [--pid-file FILE] [--log FILE] [--regex-only]
  server.py ensure --venv DIR [--index-url URL]
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "1.0.0"
MAX_BODY = 8 * 1024 * 1024

# ---- assist's own recognizers (also registered with Presidio) --------------------------------------

# Each: entity, name, regex, base score, context words. A context word in the 40 characters before a
# match raises the score by CONTEXT_BOOST (Presidio's LemmaContextAwareEnhancer does the same there).
CONTEXT_BOOST = 0.4

RECOGNIZERS = [
    {
        "entity": "HL7_MRN",
        "name": "HL7 medical record number",
        # 6 to 12 digits, optionally after 1-3 capital letters (E1234567), not inside a longer number,
        # a date or a version.
        "regex": r"(?<![\w./-])(?:[A-Z]{1,3}-?)?\d{6,12}(?![\w/-]|\.\d)",
        "score": 0.3,
        "context": ["mrn", "medical record", "record number", "patient id", "pid", "chart", "acct",
                    "account", "visit", "encounter"],
    },
    {
        "entity": "HL7_CARET_NAME",
        "name": "HL7 caret-separated person name",
        # LAST^FIRST[^MIDDLE]: capitalised words joined by carets, as PID-5 and NK1-2 write them.
        "regex": r"(?<![\w^])[A-Z][A-Za-z'\-]+\^[A-Z][A-Za-z'\-]+(?:\^[A-Z][A-Za-z'\-]*)?(?![\w])",
        "score": 0.7,
        "context": ["name", "patient", "pid", "nk1", "guarantor", "insured"],
    },
    {
        "entity": "HL7_PHONE_BARE",
        "name": "bare 10-digit phone number",
        # 10 digits with no separators (5551234567), as XTN components often hold them; not the
        # 10-digit epoch seconds that start with 1 (US area codes never start with 0 or 1).
        "regex": r"(?<![\w.+-])[2-9]\d{2}[2-9]\d{6}(?![\w-]|\.\d)",
        "score": 0.3,
        "context": ["phone", "tel", "telephone", "cell", "mobile", "home", "work", "call", "fax", "ph"],
    },
]

# Built-ins for the regex-only mode (Presidio has its own recognizers for these).
FALLBACK = [
    {"entity": "US_SSN", "regex": r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])", "score": 0.85, "context": []},
    {
        "entity": "EMAIL_ADDRESS",
        "regex": r"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![\w-])",
        "score": 1.0,
        "context": [],
    },
    {
        "entity": "PHONE_NUMBER",
        "regex": r"(?<![\w.+-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\d{3}-\d{3}-\d{4}|\d{3}\.\d{3}\.\d{4})(?![\w-])",
        "score": 0.75,
        "context": [],
    },
]

# Entities returned when the request names none: free-text PHI only (DATE_TIME, URL, IP_ADDRESS and
# NRP are too noisy in engine output; dates are handled by assist's tier 2 with DOB context).
DEFAULT_ENTITIES = [
    "PERSON", "PHONE_NUMBER", "EMAIL_ADDRESS", "US_SSN", "LOCATION", "MEDICAL_LICENSE",
    "US_DRIVER_LICENSE", "US_PASSPORT", "US_BANK_NUMBER", "CREDIT_CARD", "ORGANIZATION",
    "HL7_MRN", "HL7_CARET_NAME", "HL7_PHONE_BARE",
]

DEFAULT_THRESHOLD = 0.5


def regex_analyze(text, entities=None, threshold=DEFAULT_THRESHOLD):
    """assist's recognizers alone, with context scoring. Returns [{entity_type, start, end, score}]."""
    wanted = set(entities) if entities else None
    lower = text.lower()
    out = []
    for rec in RECOGNIZERS + FALLBACK:
        if wanted is not None and rec["entity"] not in wanted:
            continue
        for m in re.finditer(rec["regex"], text):
            score = rec["score"]
            window = lower[max(0, m.start() - 40):m.start()]
            if any(word in window for word in rec["context"]):
                score = min(1.0, score + CONTEXT_BOOST)
            if score >= threshold:
                out.append({"entity_type": rec["entity"], "start": m.start(), "end": m.end(), "score": round(score, 3)})
    return resolve_overlaps(out)


def resolve_overlaps(found):
    """Highest score first, then longest; drops anything overlapping a kept result."""
    found.sort(key=lambda e: (-e["score"], -(e["end"] - e["start"]), e["start"]))
    kept = []
    for e in found:
        if all(e["end"] <= k["start"] or e["start"] >= k["end"] for k in kept):
            kept.append(e)
    kept.sort(key=lambda e: e["start"])
    return kept


# ---- Presidio ---------------------------------------------------------------------------------------

class Detector:
    def __init__(self, regex_only=False):
        self.engine = "regex"
        self.analyzer = None
        self.entities = sorted(set([r["entity"] for r in RECOGNIZERS + FALLBACK]))
        if regex_only:
            return
        try:
            from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer
        except ImportError:
            return
        analyzer = build_analyzer(AnalyzerEngine)
        for rec in RECOGNIZERS:
            analyzer.registry.add_recognizer(PatternRecognizer(
                supported_entity=rec["entity"],
                name=rec["entity"],
                patterns=[Pattern(name=rec["name"], regex=rec["regex"], score=rec["score"])],
                context=rec["context"],
            ))
        self.analyzer = analyzer
        self.engine = "presidio"
        self.entities = sorted(set(analyzer.get_supported_entities(language="en")))

    def analyze(self, text, entities=None, threshold=DEFAULT_THRESHOLD, language="en"):
        if self.analyzer is None:
            return regex_analyze(text, entities, threshold)
        wanted = entities or [e for e in DEFAULT_ENTITIES if e in self.entities]
        results = self.analyzer.analyze(text=text, language=language, entities=wanted, score_threshold=threshold)
        found = [{"entity_type": r.entity_type, "start": r.start, "end": r.end, "score": round(float(r.score), 3)}
                 for r in results]
        return resolve_overlaps(found)


def build_analyzer(AnalyzerEngine):
    """One engine per process (model loading dominates latency): the small spaCy model when present."""
    try:
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        import spacy.util
        for model in ("en_core_web_sm", "en_core_web_lg", "en_core_web_md"):
            if spacy.util.is_package(model):
                provider = NlpEngineProvider(nlp_configuration={
                    "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]})
                return AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
    except Exception:
        pass
    return AnalyzerEngine()


# ---- HTTP -------------------------------------------------------------------------------------------

def make_handler(detector, server_ref, token=None):
    class Handler(BaseHTTPRequestHandler):
        server_version = "assist-phi-sidecar/" + VERSION

        def log_message(self, fmt, *args):  # never log request content (it holds PHI)
            pass

        def reply(self, code, obj):
            body = json.dumps(obj).encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def authorized(self):
            # Requests that carry text, or stop the server, must hold the token assist wrote (0600).
            if token is None:
                return True
            given = (self.headers.get("X-Assist-Sidecar-Token") or "").encode("utf-8")
            return hmac.compare_digest(given, token)

        def do_GET(self):
            if self.path.split("?")[0] == "/health":
                answer = {"status": "ok", "engine": detector.engine, "pid": os.getpid(),
                          "version": VERSION, "python": sys.executable, "entities": detector.entities}
                nonce = self.headers.get("X-Assist-Nonce")
                if token is not None and nonce:
                    # Proof that this server holds the token, without the client revealing it.
                    answer["proof"] = hmac.new(token, nonce.encode("utf-8"), hashlib.sha256).hexdigest()
                self.reply(200, answer)
            else:
                self.reply(404, {"error": "not found"})

        def read_json(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                raise ValueError("request body too large")
            data = self.rfile.read(length) if length else b"{}"
            obj = json.loads(data.decode("utf-8"))
            if not isinstance(obj, dict):
                raise ValueError("request body must be a JSON object")
            return obj

        def do_POST(self):
            path = self.path.split("?")[0]
            if not self.authorized():
                self.reply(403, {"error": "missing or wrong sidecar token"})
                return
            try:
                req = self.read_json()
            except (ValueError, UnicodeDecodeError) as e:
                self.reply(400, {"error": str(e).splitlines()[0][:200]})
                return
            if path == "/redact":
                text = req.get("text")
                if not isinstance(text, str):
                    self.reply(400, {"error": "text must be a string"})
                    return
                entities = req.get("entities")
                if entities is not None and not (isinstance(entities, list) and all(isinstance(e, str) for e in entities)):
                    self.reply(400, {"error": "entities must be a list of strings"})
                    return
                threshold = req.get("score_threshold", DEFAULT_THRESHOLD)
                if not isinstance(threshold, (int, float)):
                    self.reply(400, {"error": "score_threshold must be a number"})
                    return
                try:
                    found = detector.analyze(text, entities, float(threshold), req.get("language") or "en")
                except Exception as e:  # the message of an analyzer error holds no request text
                    self.reply(500, {"error": type(e).__name__})
                    return
                self.reply(200, {"entities": found})
            elif path == "/shutdown":
                self.reply(200, {"status": "stopping"})
                threading.Thread(target=server_ref[0].shutdown, daemon=True).start()
            else:
                self.reply(404, {"error": "not found"})

    return Handler


def venv_python(venv):
    for rel in (("bin", "python3"), ("bin", "python"), ("Scripts", "python.exe")):
        p = os.path.join(venv, *rel)
        if os.path.exists(p):
            return p
    return None


def serve(args):
    # Run inside the venv when there is one and we are not already its interpreter.
    if args.venv and not args.regex_only:
        py = venv_python(args.venv)
        if py and os.path.realpath(sys.prefix) != os.path.realpath(args.venv) and not os.environ.get("ASSIST_SIDECAR_REEXEC"):
            os.environ["ASSIST_SIDECAR_REEXEC"] = "1"
            os.execv(py, [py, os.path.abspath(__file__)] + sys.argv[1:])
    if args.log:
        fd = os.open(args.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(fd, 2)
    token = None
    if args.token_file:
        with open(args.token_file, "rb") as f:
            token = f.read().strip()
        if not token:
            sys.stderr.write("the token file is empty: %s\n" % args.token_file)
            sys.exit(2)
    detector = Detector(regex_only=args.regex_only)
    ref = [None]
    httpd = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(detector, ref, token))
    ref[0] = httpd
    if args.pid_file:
        with open(args.pid_file, "w") as f:
            f.write("%d %d\n" % (os.getpid(), httpd.server_address[1]))
    sys.stderr.write("assist-phi-sidecar %s (%s) listening on 127.0.0.1:%d\n" % (VERSION, detector.engine, httpd.server_address[1]))
    sys.stderr.flush()
    try:
        httpd.serve_forever()
    finally:
        httpd.server_close()
        if args.pid_file:
            try:
                os.remove(args.pid_file)
            except OSError:
                pass


def ensure(args):
    import subprocess
    import venv as venvmod
    if not venv_python(args.venv):
        sys.stderr.write("creating %s\n" % args.venv)
        venvmod.create(args.venv, with_pip=True)
    py = venv_python(args.venv)
    pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "--retries", "1", "--timeout", "20"]
    if args.index_url:
        pip += ["--index-url", args.index_url]
    steps = [
        pip + ["presidio-analyzer", "spacy"],
        [py, "-m", "spacy", "download", "en_core_web_sm"],
    ]
    for step in steps:
        sys.stderr.write("running: %s\n" % " ".join(step[1:]))
        sys.stderr.flush()
        rc = subprocess.call(step)
        if rc != 0:
            sys.stderr.write("failed (exit %d): %s\n" % (rc, " ".join(step[1:])))
            return rc
    sys.stderr.write("phi-venv ready: %s\n" % args.venv)
    return 0


def main(argv):
    p = argparse.ArgumentParser(prog="assist-phi-sidecar")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--port", type=int, default=41189)
    s.add_argument("--venv")
    s.add_argument("--pid-file")
    s.add_argument("--log")
    s.add_argument("--regex-only", action="store_true")
    s.add_argument("--token-file", help="file holding the shared token (0600); required on /redact and /shutdown")
    e = sub.add_parser("ensure")
    e.add_argument("--venv", required=True)
    e.add_argument("--index-url")
    args = p.parse_args(argv)
    if args.cmd == "serve":
        serve(args)
        return 0
    return ensure(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
