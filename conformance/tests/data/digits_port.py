"""A deliberately broken port for conformance/tests/diff.rs: it proxies
the reference's own `agentfence port` (the command in argv[1:]) and
breaks one rule of the template suite, the number placeholder: in a
template the reference answers, the first `‹n›` becomes the first run of
ASCII digits of the message, so the message's number leaks, as a port
without the number rule would leak it. Every other line passes through
unchanged.

With `--also-email-kind` first, it breaks a second rule too, of another
kind (another field): for a message with an `@` in it the output's `kind`
becomes `email`, so a vector recording the first fault does not record
the second.
"""

import json
import re
import subprocess
import sys


def main() -> None:
    command = sys.argv[1:]
    email_kind = command[:1] == ["--also-email-kind"]
    if email_kind:
        command = command[1:]
    reference = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    messages = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "case" and request.get("op") == "template":
            messages[request["id"]] = request["input"].get("message", "")
        reference.stdin.write(line)
        reference.stdin.flush()
        if request.get("type") == "suite":
            continue  # a suite message has no answer
        reply = reference.stdout.readline()
        if not reply:
            break
        answer = json.loads(reply)
        message = messages.pop(answer.get("id"), None)
        template = (answer.get("output") or {}).get("template")
        digits = re.search(r"[0-9]+", message or "")
        if template and digits and "‹n›" in template:
            answer["output"]["template"] = template.replace("‹n›", digits.group(0), 1)
            reply = json.dumps(answer, ensure_ascii=False) + "\n"
        if email_kind and template and "@" in (message or ""):
            answer["output"]["kind"] = "email"
            reply = json.dumps(answer, ensure_ascii=False) + "\n"
        sys.stdout.write(reply)
        sys.stdout.flush()
        if request.get("type") == "bye":
            break
    reference.stdin.close()
    reference.wait()


if __name__ == "__main__":
    main()
