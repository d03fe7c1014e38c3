#!/usr/bin/env node
'use strict';
// The JavaScript port of agentfence: the JSON-lines protocol loop of
// conformance/PROTOCOL.md on stdin and stdout. Node.js 20 or later, its
// standard library only.
//
//   agentfence run --port 'node conformance/ports/js/agentfence_port.js'
//
// Each module next to this file exports OPERATIONS, {op: function(input,
// config) -> output}, and throws a PortError(kind, message) to refuse an
// input. A module that fails to load is reported on stderr and its
// operations are left out of the hello, so the runner counts their cases
// as skipped instead of sending them.

const fs = require('fs');
const path = require('path');

const { PortError } = require('./port_error');
const { write } = require('./json_out');

const PROTOCOL = 1;
const IMPLEMENTATION = { name: 'agentfence-js', language: 'javascript', version: '0.1.0' };
// A template module (template.js, operation template) would be listed here.
const MODULES = ['./chat', './envelope'];

function log(...parts) {
  fs.writeSync(2, `agentfence-js: ${parts.join(' ')}\n`);
}

// stdout carries protocol lines only: anything a module prints goes to
// stderr.
console.log = (...parts) => log(...parts);
console.info = console.log;

function loadOperations() {
  const operations = new Map();
  for (const name of MODULES) {
    let table;
    try {
      table = require(name).OPERATIONS;
    } catch (error) {
      if (error.code === 'MODULE_NOT_FOUND' && fs.existsSync(path.join(__dirname, `${name}.js`)) === false) {
        log(`module ${name} not found, its operations are skipped`);
      } else {
        log(`module ${name} not loaded, its operations are skipped:`, error.stack);
      }
      continue;
    }
    for (const [op, fn] of Object.entries(table ?? {})) {
      if (typeof fn === 'function' && !operations.has(op)) {
        operations.set(op, fn);
      }
    }
  }
  return operations;
}

/** Writes the whole line to fd 1, waiting out a full pipe. */
function writeLine(line) {
  const bytes = Buffer.from(`${line}\n`, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += fs.writeSync(1, bytes, written, bytes.length - written);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/** Reads stdin to its end, calling `onLine` with each line's bytes (no LF). */
function readLines(onLine) {
  const chunk = Buffer.alloc(1 << 16);
  let pending = [];
  for (;;) {
    let count;
    try {
      count = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (error.code === 'EOF') return;
      throw error;
    }
    if (count === 0) {
      if (pending.length > 0 && onLine(Buffer.concat(pending)) === false) return;
      return;
    }
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end < 0 || end >= count) break;
      pending.push(Buffer.from(chunk.subarray(start, end)));
      const line = Buffer.concat(pending);
      pending = [];
      if (onLine(line) === false) return;
      start = end + 1;
    }
    if (start < count) pending.push(Buffer.from(chunk.subarray(start, count)));
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function main() {
  const operations = loadOperations();
  const configs = new Map();
  let suite = null;

  readLines((bytes) => {
    let request;
    try {
      request = JSON.parse(utf8.decode(bytes));
    } catch (error) {
      log('unreadable request line, no reply:', error.message);
      return true;
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      log('request is not a JSON object, no reply');
      return true;
    }
    switch (request.type) {
      case 'hello':
        writeLine(
          write({ type: 'hello', protocol: PROTOCOL, implementation: IMPLEMENTATION, operations: [...operations.keys()] }),
        );
        return true;
      case 'suite': {
        const config = request.config;
        suite = typeof request.suite === 'string' ? request.suite : null;
        configs.set(suite, config !== null && typeof config === 'object' && !Array.isArray(config) ? config : {});
        return true;
      }
      case 'case':
        if (typeof request.id !== 'string') {
          log('case without a string id, no reply');
          return true;
        }
        writeLine(write({ type: 'result', id: request.id, ...answer(operations, request, configs.get(suite) ?? {}) }));
        return true;
      case 'bye':
        return false;
      default:
        // Request types this port does not know are ignored.
        return true;
    }
  });
}

function answer(operations, request, config) {
  const operation = operations.get(request.op);
  if (operation === undefined) {
    return { error: { kind: 'bad_request', message: `unknown operation ${JSON.stringify(request.op)}` } };
  }
  try {
    return { output: operation(request.input, config) };
  } catch (error) {
    if (error instanceof PortError) {
      return { error: { kind: error.kind, message: error.message } };
    }
    log(`case ${request.id}: internal error:`, error.stack);
    return { error: { kind: 'internal', message: String(error) } };
  }
}

main();
