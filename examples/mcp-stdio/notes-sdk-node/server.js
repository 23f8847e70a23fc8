#!/usr/bin/env node
// A small notes server over MCP stdio, written on the official TypeScript SDK.
// Notes live in memory for the life of the process.

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notes = new Map();
let nextId = 1;

const server = new McpServer({ name: "notes-sdk-node", version: "0.1.0" });

function text(s) {
  return { content: [{ type: "text", text: s }] };
}

function notFound(id) {
  return { content: [{ type: "text", text: `No note with id ${id}` }], isError: true };
}

server.registerTool(
  "add_note",
  {
    title: "Add note",
    description: "Store a new note and return its id",
    inputSchema: {
      title: z.string().min(1).describe("Short title of the note"),
      body: z.string().describe("Text of the note"),
    },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  },
  async ({ title, body }) => {
    const id = String(nextId++);
    notes.set(id, { id, title, body, created: new Date().toISOString() });
    return text(`Added note ${id}: ${title}`);
  },
);

server.registerTool(
  "list_notes",
  {
    title: "List notes",
    description: "List the ids and titles of all notes",
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async () => {
    if (notes.size === 0) return text("No notes yet.");
    const lines = [...notes.values()].map((n) => `${n.id}: ${n.title}`);
    return text(lines.join("\n"));
  },
);

server.registerTool(
  "get_note",
  {
    title: "Get note",
    description: "Return the title and body of one note",
    inputSchema: { id: z.string().describe("Id returned by add_note") },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ id }) => {
    const note = notes.get(id);
    if (!note) return notFound(id);
    return text(`# ${note.title}\n\n${note.body}`);
  },
);

server.registerTool(
  "delete_note",
  {
    title: "Delete note",
    description: "Delete one note by id",
    inputSchema: { id: z.string().describe("Id returned by add_note") },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  async ({ id }) => {
    if (!notes.delete(id)) return notFound(id);
    return text(`Deleted note ${id}`);
  },
);

const transport = new StdioServerTransport();
await server.connect(transport);
