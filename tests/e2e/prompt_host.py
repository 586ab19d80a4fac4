#!/usr/bin/env python3
"""The smallest MCP server (stdio) an Agent SDK host would name with
`--permission-prompt-tool`: one tool, `prompt`, which refuses whatever it is asked. Claude Code
offers ExitPlanMode under -p only when such a tool is named; gatehouse's hook answers first, so
it is never asked in the tests. Standard library only."""
import json, sys

TOOL = {"name": "prompt", "description": "the host's permission prompt",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": True}}

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2024-11-05"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "host", "version": "0"}}
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        answer = {"behavior": "deny", "message": "the host's prompt was asked"}
        result = {"content": [{"type": "text", "text": json.dumps(answer)}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
    sys.stdout.flush()
