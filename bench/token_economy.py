"""Token economy of the agent tools: the size of ripple's answer to a developer's question against the
files an agent would otherwise read to answer it.

Usage::

    ripple index /tmp/corpora/django-5.2.8 --db /tmp/mcp/x.db
    python bench/token_economy.py --db /tmp/mcp/x.db [--json] [--max-tokens 4000]

For each of 20 questions on Django 5.2.8 (:data:`QUESTIONS`: "who calls X", "what breaks if I change
Y", "where is Z done"), the answer is what ``ripple mcp`` returns as text for the tool an agent would
call (``callers``, ``impact``, ``search`` with 5 hits; the default budget of 4,000 tokens unless
``--max-tokens``), made by the same facade (:class:`analysis.agent_queries.AgentQueries`). The
baseline is what an agent without ripple reads to answer it: the whole files holding the definition
and every direct caller (for a search question, of the symbol that answers it, whether or not the
search found it; ``found`` says whether it is among the 5 hits). Direct callers only, so the baseline
is the least such an agent reads (a "what breaks" answer needs the callers' callers too).

Sizes are characters and model tokens counted with the tokenizer that ships with the bundled
embedding model (``stores/model/*/tokenizer.json``, WordPiece; run by the ``tokenizers`` library,
no truncation), through :func:`analysis.tokens.token_counter`, the counter the answers' budget uses. Prints one row per question, then the median and total ratios (baseline / answer).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analysis.agent_queries import AgentQueries, resolve_target  # noqa: E402
from analysis.navigation import callers  # noqa: E402
from analysis.tokens import token_counter  # noqa: E402
from stores.factory import open_store  # noqa: E402

QUESTIONS: list[tuple[str, str, str, str]] = [
    # (tool, question, target or query, for search: the symbol that answers it)
    ("callers", "Who calls slugify?", "django.utils.text.slugify", ""),
    ("callers", "Who calls get_random_string?", "django.utils.crypto.get_random_string", ""),
    ("callers", "Who calls make_password?", "django.contrib.auth.hashers.make_password", ""),
    ("callers", "Who calls render_to_string?", "django.template.loader.render_to_string", ""),
    ("callers", "Who calls url_has_allowed_host_and_scheme?",
     "django.utils.http.url_has_allowed_host_and_scheme", ""),
    ("callers", "Who calls get_token (CSRF)?", "django.middleware.csrf.get_token", ""),
    ("callers", "Who calls parse_header_parameters?", "django.utils.http.parse_header_parameters", ""),
    ("impact", "What breaks if I change check_password?", "django.contrib.auth.hashers.check_password", ""),
    ("impact", "What breaks if I change SessionBase.cycle_key?",
     "django.contrib.sessions.backends.base.SessionBase.cycle_key", ""),
    ("impact", "What breaks if I change send_mail?", "django.core.mail.send_mail", ""),
    ("impact", "What breaks if I change get_user_model?", "django.contrib.auth.get_user_model", ""),
    ("impact", "What breaks if I change patch_vary_headers?", "django.utils.cache.patch_vary_headers", ""),
    ("impact", "What breaks if I change Signer.sign?", "django.core.signing.Signer.sign", ""),
    ("impact", "What breaks if I change escape (HTML)?", "django.utils.html.escape", ""),
    ("search", "Where is the Accept-Language header parsed?", "parse the Accept-Language header",
     "django.utils.translation.trans_real.parse_accept_lang_header"),
    ("search", "Where are email addresses validated?", "validate an email address",
     "django.core.validators.EmailValidator.__call__"),
    ("search", "Where is a password hashed with PBKDF2?", "hash a password with PBKDF2",
     "django.contrib.auth.hashers.PBKDF2PasswordHasher.encode"),
    ("search", "Where is the password reset email sent?", "send the password reset email",
     "django.contrib.auth.forms.PasswordResetForm.send_mail"),
    ("search", "Where are session keys rotated on login?", "rotate the session key when a user logs in",
     "django.contrib.sessions.backends.base.SessionBase.cycle_key"),
    ("search", "Where is a signed cookie read?", "get a signed cookie value",
     "django.http.request.HttpRequest.get_signed_cookie"),
]


def baseline_files(store, target: str) -> list[tuple[str, str]]:
    """``(repo, path)`` of the files holding ``target``'s definition and every direct caller."""
    nodes, _ = resolve_target(store, target)
    files = {(n.repo, n.file) for n in nodes}
    files |= {(r.repo, r.file) for r in callers(store, nodes)}
    return sorted(files)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="An index of Django 5.2.8 (ripple index ... --db FILE).")
    ap.add_argument("--max-tokens", type=int, default=None, help="The answers' budget (default: the tools').")
    ap.add_argument("--json", action="store_true", help="Print the rows as JSON too.")
    args = ap.parse_args()
    store = open_store(Path(args.db))
    q = AgentQueries(store, store)
    counter = token_counter()
    if not counter.exact:
        sys.exit(f"the bundled tokenizer cannot load ({counter.method}); token counts would be estimates")
    tokens = counter.count

    q.search("warm up the query embedder", limit=1)
    rows = []
    for tool, question, arg, answer_symbol in QUESTIONS:
        t0 = time.perf_counter()
        if tool == "callers":
            answer = q.callers(arg, max_tokens=args.max_tokens)
        elif tool == "impact":
            answer = q.impact(arg, max_tokens=args.max_tokens)
        else:
            answer = q.search(arg, limit=5, max_tokens=args.max_tokens)
        ms = (time.perf_counter() - t0) * 1000
        symbol = answer_symbol or arg
        files = baseline_files(store, symbol)
        texts = [store.file_text(repo, path) or "" for repo, path in files]
        base = "\n".join(texts)
        found = None
        if tool == "search":
            want = {n.id for n in resolve_target(store, answer_symbol)[0]}
            found = any(h["id"] in want for h in answer.result["hits"])
        row = {"tool": tool, "question": question, "answer_chars": len(answer.text),
               "answer_tokens": tokens(answer.text), "json_chars": len(json.dumps(answer.as_dict(), ensure_ascii=False)),
               "files": len(files), "baseline_chars": len(base), "baseline_tokens": tokens(base),
               "truncated": bool(answer.truncated), "found": found, "ms": round(ms, 1)}
        row["ratio"] = row["baseline_tokens"] / row["answer_tokens"]
        rows.append(row)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load {os.getloadavg()[0]:.2f}; index {args.db}")
    head = f"{'#':>2} {'tool':<8} {'question':<52} {'answer ch':>9} {'tok':>6} {'json ch':>7} {'files':>5} " \
           f"{'baseline ch':>11} {'tok':>7} {'ratio':>7}  cut found"
    print(head)
    for i, r in enumerate(rows, 1):
        found = "-" if r["found"] is None else ("yes" if r["found"] else "no")
        print(f"{i:>2} {r['tool']:<8} {r['question'][:52]:<52} {r['answer_chars']:>9,} {r['answer_tokens']:>6,} "
              f"{r['json_chars']:>7,} {r['files']:>5} {r['baseline_chars']:>11,} {r['baseline_tokens']:>7,} {r['ratio']:>6.1f}x  "
              f"{'yes' if r['truncated'] else 'no':<3} {found}")
    ratios = [r["ratio"] for r in rows]
    total = sum(r["baseline_tokens"] for r in rows) / sum(r["answer_tokens"] for r in rows)
    print(f"median ratio {statistics.median(ratios):.1f}x (min {min(ratios):.1f}x, max {max(ratios):.1f}x); "
          f"total {sum(r['baseline_tokens'] for r in rows):,} baseline tokens / "
          f"{sum(r['answer_tokens'] for r in rows):,} answer tokens = {total:.1f}x")
    by_tool = {}
    for r in rows:
        by_tool.setdefault(r["tool"], []).append(r["ratio"])
    print("median by tool: " + ", ".join(f"{k} {statistics.median(v):.1f}x" for k, v in by_tool.items()))
    if args.json:
        print(json.dumps(rows, indent=1))
    store.close()


if __name__ == "__main__":
    main()
