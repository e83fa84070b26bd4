"""An MCP client for keyplan's MCP tests, on the official Python SDK (`mcp`).

    client.py stdio KEYPLAN_BIN    # starts `KEYPLAN_BIN mcp` and talks to it over stdio
    client.py http URL             # talks to `keyplan serve`'s POST /mcp (streamable HTTP)

Reads from stdin a JSON list of calls, `[{"tool": NAME, "arguments": {...}}, ...]`, and prints
one JSON document: the server's tools (name, description, input schema), its resources and
what each reads, and each call's answer, in order: `{"is_error", "structured", "text"}` for a
tool result (an error the tool reports included), `{"error": {"code", "message", "data"}}` for
a JSON-RPC error. The test compares these with the CLI's output; nothing is judged here.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client
from mcp.shared.exceptions import McpError


async def drive(session, calls):
    await session.initialize()
    tools = await session.list_tools()
    resources = await session.list_resources()
    read = {}
    for resource in resources.resources:
        contents = await session.read_resource(resource.uri)
        read[str(resource.uri)] = {
            "mime_type": resource.mimeType,
            "text": "".join(getattr(c, "text", "") for c in contents.contents),
        }
    answers = []
    for call in calls:
        try:
            result = await session.call_tool(call["tool"], call["arguments"])
        except McpError as error:
            answers.append(
                {
                    "error": {
                        "code": error.error.code,
                        "message": error.error.message,
                        "data": error.error.data,
                    }
                }
            )
            continue
        answers.append(
            {
                "is_error": bool(result.isError),
                "structured": result.structuredContent,
                "text": "\n".join(c.text for c in result.content if c.type == "text"),
            }
        )
    return {
        "tools": [
            {"name": t.name, "description": t.description, "input_schema": t.inputSchema}
            for t in tools.tools
        ],
        "resources": read,
        "calls": answers,
    }


async def main():
    transport, target = sys.argv[1], sys.argv[2]
    calls = json.load(sys.stdin)
    if transport == "stdio":
        server = StdioServerParameters(command=target, args=["mcp"])
        client = stdio_client(server)
    else:
        client = streamablehttp_client(target)
    async with client as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            out = await drive(session, calls)
    json.dump(out, sys.stdout)


asyncio.run(main())
