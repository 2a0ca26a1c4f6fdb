"""reclamo's REPL worker: runs model-written Python for the host.

Standard library only. The host starts it as `python -I worker.py` with:
  fd 0  /dev/null
  fd 1  pointed at fd 2 by the worker itself (raw output of the code and anything it spawns)
  fd 2  a pipe the host drains
  fd 3  the private channel (a socket pair), framed as
        [4-byte big-endian length][ASCII JSON object with "s" (sequence) and "k" (session token)]

The first frame from the host is `init`: the worker loads the context from the path it
names, applies the limits, drops privileges when told to, and answers `ready` with the
context's shape. After that the main thread runs requests one at a time (model code must
run on the main thread so a timeout can interrupt it), and a reader thread routes replies
to host calls by id, so calls from several threads at once work.
"""

import json
import linecache
import os
import queue
import re
import resource
import signal
import struct
import sys
import threading
import time
import traceback

CHANNEL_FD = 3
HEADER = struct.Struct(">I")
CELL_PREFIX = "<cell-"


class ProtocolError(Exception):
    """A frame from the host broke the framing rules."""


class HostCallError(RuntimeError):
    """A host function (llm_query, llm_query_batched, rlm_query) failed."""


class HostCallLimitError(HostCallError):
    """The per-execution or per-run cap on host calls was reached."""


class FrameTooLarge(ValueError):
    """A message is over the host's frame limit; nothing was sent."""


# ---------------------------------------------------------------------------
# Channel


class Channel:
    def __init__(self, fd, max_frame):
        self.fd = fd
        self.max_frame = max_frame
        self.token = None
        self.max_out = 64 * 1024 * 1024
        self.out_seq = 0
        self.in_seq = 0
        self.wlock = threading.Lock()
        self.buf = bytearray()

    def send(self, msg):
        body = json.dumps(msg, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        if len(body) + 100 > self.max_out:
            raise FrameTooLarge(
                "a %d-byte message is over the channel's %d-byte limit" % (len(body), self.max_out)
            )
        with self.wlock:
            self.out_seq += 1
            head = '{"s":%d,"k":"%s"' % (self.out_seq, self.token)
            data = (head + ("," + body[1:] if len(body) > 2 else "}")).encode("ascii")
            view = memoryview(HEADER.pack(len(data)) + data)
            while view:
                n = os.write(self.fd, view)
                view = view[n:]

    def recv(self):
        """Next frame as a dict, or None at end of stream."""
        while True:
            if len(self.buf) >= 4:
                (n,) = HEADER.unpack_from(self.buf, 0)
                if n > self.max_frame:
                    raise ProtocolError("frame of %d bytes is over the limit" % n)
                if len(self.buf) >= 4 + n:
                    payload = bytes(self.buf[4 : 4 + n])
                    del self.buf[: 4 + n]
                    return self._check(payload)
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return None
            self.buf += chunk

    def _check(self, payload):
        try:
            msg = json.loads(payload)
        except ValueError:
            raise ProtocolError("frame is not JSON")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ProtocolError("frame has no type")
        if msg.get("s") != self.in_seq + 1:
            raise ProtocolError("frame out of sequence")
        self.in_seq += 1
        if self.token is None and msg.get("type") == "init":
            self.token = msg.get("k")
        if not isinstance(self.token, str) or msg.get("k") != self.token:
            raise ProtocolError("frame has the wrong session token")
        return msg


# ---------------------------------------------------------------------------
# Output capture


class _BinaryCapture:
    def __init__(self, text):
        self._text = text

    def write(self, data):
        self._text.write(bytes(data).decode("utf-8", errors="replace"))
        return len(data)

    def flush(self):
        pass


class Capture:
    """A text stream that keeps the first `limit` characters and counts the rest."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.total = 0
        self.lock = threading.Lock()
        self.buffer = _BinaryCapture(self)

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        n = len(s)
        with self.lock:
            self.total += n
            room = self.limit - self.kept
            if room > 0:
                piece = s if n <= room else s[:room]
                self.parts.append(piece)
                self.kept += len(piece)
        return n

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def readable(self):
        return False

    def writable(self):
        return True

    def fileno(self):
        import io

        raise io.UnsupportedOperation("the REPL's output is captured, not a file descriptor")

    def text(self):
        return "".join(self.parts)


# ---------------------------------------------------------------------------
# Context loading


def read_text(path, errors):
    """A file's text. Large files are decoded straight from a read-only mapping of the page
    cache: no intermediate bytes object, so fewer fresh pages to fault in."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size >= (1 << 20):
            try:
                import mmap

                mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError, ImportError):
                mm = None
            if mm is not None:
                try:
                    if hasattr(mm, "madvise") and hasattr(mmap, "MADV_SEQUENTIAL"):
                        mm.madvise(mmap.MADV_SEQUENTIAL)
                    return str(mm, "utf-8", errors)
                finally:
                    mm.close()
        data = f.read()
    return data.decode("utf-8", errors)


def _is_hidden(name):
    return name.startswith(".")


def load_directory(root):
    files = {}
    hidden = not_utf8 = unreadable = 0
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, rel) if rel else root))
        except OSError:
            unreadable += 1
            continue
        for entry in entries:
            if _is_hidden(entry.name):
                hidden += 1
                continue
            path = rel + "/" + entry.name if rel else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                    continue
                if not entry.is_file():
                    continue
                files[path] = read_text(entry.path, "strict")
            except UnicodeDecodeError:
                not_utf8 += 1
            except OSError:
                unreadable += 1
    ordered = {k: files[k] for k in sorted(files)}
    skipped = {"hidden": hidden, "notUtf8": not_utf8, "unreadable": unreadable}
    return ordered, skipped


def load_json_dict(path):
    """A JSON object of strings (a dict an rlm_query handed to this child) as the context."""
    data = json.loads(read_text(path, "replace"))
    if not _is_text_dict(data) and data != {}:
        raise ValueError("the data is not a JSON object of strings")
    lengths = [len(v) for v in data.values()]
    return data, {"type": "dict", "totalChars": sum(lengths), "partLengths": lengths}


def load_context(spec):
    kind = spec.get("kind")
    if kind == "none":
        return None, {"type": "NoneType", "totalChars": 0, "partLengths": []}
    path = spec.get("path")
    if kind == "file" and spec.get("format") == "json":
        return load_json_dict(path)
    if kind == "file":
        bad_at = None
        try:
            text = read_text(path, "strict")
        except UnicodeDecodeError as e:
            # Still loaded (a stray bad byte should not lose a whole log), but reported.
            bad_at = e.start
            text = read_text(path, "replace")
        shape = {"type": "str", "totalChars": len(text), "partLengths": [len(text)]}
        if bad_at is not None:
            shape["invalidUtf8At"] = bad_at
        return text, shape
    if kind == "directory":
        files, skipped = load_directory(path)
        lengths = [len(v) for v in files.values()]
        shape = {"type": "dict", "totalChars": sum(lengths), "partLengths": lengths}
        shape["skipped"] = skipped
        return files, shape
    raise ValueError("unknown context kind %r" % (kind,))


# ---------------------------------------------------------------------------
# Limits and privileges


def _libc():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except Exception:
        return None


def set_no_new_privs():
    libc = _libc()
    if libc is None:
        return False
    return libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS


def drop_privileges(uid, gid):
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (gid, gid, gid):
        raise OSError("the uid drop did not take effect")


def _status_field(name):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _net_ns():
    try:
        return os.readlink("/proc/self/ns/net")
    except OSError:
        return None


# ---------------------------------------------------------------------------
# The worker


class Worker:
    def __init__(self, channel):
        self.channel = channel
        self.requests = queue.Queue()
        self.main_ident = threading.get_ident()
        self.state_lock = threading.Lock()
        self.running = False
        self.calls_active = False
        self.exec_calls = 0
        self.exec_cap = 0
        self.cap_message = ""
        self.next_call = 0
        self.pending = {}
        self.cell = 0
        self.notes = {}
        self.exchange_dir = None
        self.rlm_count = 0
        self.capture_limit = 1000000
        self.ns = {}
        self.reserved = {}
        self.interrupted = False
        # True when kill(-1) can only reach this sandbox's processes: the worker is pid 1
        # of its own PID namespace, or runs under a uid of its own.
        self.owns_all_peers = False

    # -- host calls ---------------------------------------------------------

    def host_call(self, kind, count, fields):
        with self.state_lock:
            if not self.calls_active:
                raise HostCallError("host calls are only available while an execution runs")
            if self.exec_calls + count > self.exec_cap:
                raise HostCallLimitError(self.cap_message)
            self.exec_calls += count
            self.next_call += 1
            cid = self.next_call
            slot = [threading.Event(), None]
            self.pending[cid] = slot
        msg = {"type": "call", "id": cid, "kind": kind}
        msg.update(fields)
        try:
            self.channel.send(msg)
        except FrameTooLarge as e:
            with self.state_lock:
                self.pending.pop(cid, None)
                self.exec_calls -= count
            raise HostCallError("%s: too large to send to the host (%s); send less text per call" % (kind, e))
        try:
            slot[0].wait()
        finally:
            with self.state_lock:
                self.pending.pop(cid, None)
        reply = slot[1]
        if not reply.get("ok"):
            raise HostCallError(str(reply.get("error", "host call failed")))
        return reply.get("value")

    def on_reply(self, msg):
        with self.state_lock:
            slot = self.pending.get(msg.get("id"))
        if slot is not None:
            slot[1] = msg
            slot[0].set()

    # -- model-facing helpers ----------------------------------------------

    def make_helpers(self):
        worker = self

        def _model(model):
            if model is not None and not isinstance(model, str):
                raise TypeError("model must be a str or None")
            return {} if model is None else {"model": model}

        def llm_query(prompt, model=None):
            """Ask a language model one question; returns its answer as a str."""
            if not isinstance(prompt, str):
                raise TypeError("llm_query(prompt) needs a str, got %s" % type(prompt).__name__)
            fields = {"prompt": prompt}
            fields.update(_model(model))
            value = worker.host_call("llm_query", 1, fields)
            if not isinstance(value, str):
                raise HostCallError("llm_query: the host answered with a non-string")
            return value

        def llm_query_batched(prompts, model=None):
            """Ask many questions at once; answers come back in input order.

            A failed item holds an error string in its slot; the others still return.
            """
            prompts = list(prompts)
            for p in prompts:
                if not isinstance(p, str):
                    raise TypeError("llm_query_batched needs a list of str, got an item of type %s" % type(p).__name__)
            if not prompts:
                return []
            fields = {"prompts": prompts}
            fields.update(_model(model))
            value = worker.host_call("llm_query_batched", len(prompts), fields)
            if not isinstance(value, list) or len(value) != len(prompts):
                raise HostCallError("llm_query_batched: the host answered with the wrong number of items")
            return [v if isinstance(v, str) else str(v) for v in value]

        def rlm_query(question, data, model=None):
            """Run a child RLM over `data` (str, dict of str, or anything JSON-serialisable)."""
            if not isinstance(question, str):
                raise TypeError("rlm_query(question, data) needs a str question")
            name, ctype = worker.write_rlm_data(data)
            fields = {"question": question, "exchange": name, "dataType": ctype}
            fields.update(_model(model))
            value = worker.host_call("rlm_query", 1, fields)
            if not isinstance(value, str):
                raise HostCallError("rlm_query: the host answered with a non-string")
            return value

        def SHOW_VARS():
            """Print the REPL's variables with their types and sizes."""
            rows = worker.list_vars()
            if not rows:
                print("(no variables)")
                return None
            width = max(len(r["name"]) for r in rows)
            twidth = max(len(r["type"]) for r in rows)
            for r in rows:
                print("%s  %s  %d" % (r["name"].ljust(width), r["type"].ljust(twidth), r["size"]))
            return None

        def NOTE(name, text):
            """Keep a named working note (survives between executions)."""
            worker.notes[str(name)] = text if isinstance(text, str) else str(text)

        def RECALL(name=None):
            """Read a note by name; with no name, all notes as a dict."""
            if name is None:
                return dict(worker.notes)
            if name not in worker.notes:
                raise KeyError("no note named %r; notes: %s" % (name, ", ".join(sorted(worker.notes)) or "none"))
            return worker.notes[name]

        def parallel(fns, max_workers=16):
            """Run callables concurrently; results in input order (first exception re-raised)."""
            fns = list(fns)
            if not fns:
                return []
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=max(1, min(int(max_workers), len(fns)))) as pool:
                return list(pool.map(lambda f: f(), fns))

        return {
            "llm_query": llm_query,
            "llm_query_batched": llm_query_batched,
            "rlm_query": rlm_query,
            "SHOW_VARS": SHOW_VARS,
            "grep": grep,
            "NOTE": NOTE,
            "RECALL": RECALL,
            "parallel": parallel,
        }

    def write_rlm_data(self, data):
        """Writes rlm_query data to one new file in the exchange folder; returns its name and type.

        The host reads nothing else: it takes the name, not a path, and checks the file itself.
        """
        self.rlm_count += 1
        if isinstance(data, str):
            name, ctype, payload = "q%d.txt" % self.rlm_count, "str", data
        elif _is_text_dict(data):
            name, ctype = "q%d.json" % self.rlm_count, "dict"
            payload = json.dumps(data, ensure_ascii=False)
        else:
            name, ctype = "q%d.json" % self.rlm_count, "str"
            payload = json.dumps(data, ensure_ascii=False, default=str)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(os.path.join(self.exchange_dir, name), flags, 0o600)
        with open(fd, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(payload)
        return name, ctype

    # -- variables ----------------------------------------------------------

    def user_names(self):
        for name, value in self.ns.items():
            if name.startswith("_"):
                continue
            if name in self.reserved and name not in ("context", "answer"):
                continue
            if type(value).__name__ == "module":
                continue
            yield name, value

    def list_vars(self):
        rows = []
        for name, value in self.user_names():
            try:
                size = len(value)
            except Exception:
                try:
                    size = len(repr(value))
                except Exception:
                    size = -1
            rows.append({"name": name, "type": type(value).__name__, "size": size})
        return rows

    # -- requests -----------------------------------------------------------

    def handle(self, msg):
        kind = msg["type"]
        rid = msg.get("rid")
        try:
            if kind == "exec":
                reply = self.run_exec(msg)
            elif kind == "get":
                reply = self.get_var(msg["name"], int(msg["max"]))
            elif kind == "list":
                reply = {"type": "vars", "vars": self.list_vars()}
            elif kind == "set":
                reply = self.set_var(msg["name"], msg.get("value"))
            elif kind == "answer":
                reply = self.read_answer(int(msg["max"]))
            elif kind == "ping":
                reply = {"type": "ok"}
            else:
                reply = {"type": "fail", "error": "unknown request %r" % kind}
        except BaseException as e:  # noqa: BLE001 - report everything to the host
            reply = {"type": "fail", "error": "%s: %s" % (type(e).__name__, e)}
        reply["rid"] = rid
        try:
            self.channel.send(reply)
        except FrameTooLarge as e:
            if reply.get("type") == "result":
                reply["changed"] = reply["changed"][:1000]
                reply["stdout"] = reply["stdout"][:100000]
                reply["stderr"] = reply["stderr"][:100000]
                self.channel.send(reply)
            else:
                self.channel.send({"type": "fail", "rid": rid, "error": str(e)})

    def get_var(self, name, limit):
        if name not in self.ns:
            return {"type": "value", "exists": False}
        value = self.ns[name]
        text = value if isinstance(value, str) else repr(value)
        return {
            "type": "value",
            "exists": True,
            "valueType": type(value).__name__,
            "text": text[:limit],
            "chars": len(text),
        }

    def set_var(self, name, value):
        if not isinstance(name, str) or not name.isidentifier():
            return {"type": "fail", "error": "%r is not a Python identifier" % (name,)}
        if name in self.reserved:
            return {"type": "fail", "error": "%r is reserved by the REPL" % name}
        self.ns[name] = value
        return {"type": "ok"}

    def read_answer(self, limit):
        if "answer" not in self.reserved:
            # No answer dict: report an `answer` variable's text, never ready.
            value = self.ns.get("answer")
            text = value if isinstance(value, str) else ""
            return {"type": "answer", "ready": False, "content": text[:limit], "chars": len(text)}
        answer = self.reserved["answer"]
        content = answer.get("content", "")
        text = content if isinstance(content, str) else ("" if content is None else str(content))
        return {
            "type": "answer",
            "ready": bool(answer.get("ready", False)),
            "content": text[:limit],
            "chars": len(text),
        }

    def restore_reserved(self):
        restored = []
        for name, original in self.reserved.items():
            current = self.ns.get(name, _MISSING)
            if current is original:
                continue
            if name == "answer" and isinstance(current, dict):
                # `answer = {"content": ..., "ready": True}` is a natural way to answer:
                # keep the values, put the original dict back.
                original.clear()
                original.update({"content": "", "ready": False})
                original.update(current)
            restored.append(name)
            self.ns[name] = original
        return restored

    def run_exec(self, msg):
        code = msg["code"]
        self.cell += 1
        filename = "%s%d>" % (CELL_PREFIX, self.cell)
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        out, err = Capture(self.capture_limit), Capture(self.capture_limit)
        before = {k: id(v) for k, v in self.ns.items()}
        self.interrupted = False
        with self.state_lock:
            self.exec_calls = 0
            self.exec_cap = int(msg["maxCalls"])
            self.cap_message = str(msg["capMessage"])
            self.calls_active = True
        error = None
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            try:
                compiled = compile(code, filename, "exec")
            except SyntaxError as e:
                error = describe_syntax_error(e)
            else:
                self.running = True
                try:
                    exec(compiled, self.ns)
                finally:
                    self.running = False
        except BaseException as e:  # noqa: BLE001 - model code failing is a result
            self.running = False
            error = describe_error(e, filename)
        finally:
            sys.stdout, sys.stderr = saved
            with self.state_lock:
                self.calls_active = False
                calls = self.exec_calls
            signal.signal(signal.SIGINT, self.on_sigint)
        if self.interrupted:
            # A timed-out execution may have left processes behind (a fork loop): end them.
            self.interrupted = False
            kill_peers(self.owns_all_peers)
        restored = self.restore_reserved()
        changed = [k for k, v in self.ns.items() if before.get(k) != id(v) and not k.startswith("__")]
        reap_children()
        # Closes this execution's raw fd 1/2 output for the host (see raw-output.ts).
        try:
            os.write(2, b"\x00RCLM%d\x00" % int(msg["rid"]))
        except (OSError, ValueError, TypeError):
            pass
        result = {
            "type": "result",
            "stdout": out.text(),
            "stderr": err.text(),
            "stdoutChars": out.total,
            "stderrChars": err.total,
            "changed": changed,
            "restored": restored,
            "hostCalls": calls,
        }
        if error is not None:
            result["error"] = error
        return result

    def on_sigint(self, signum, frame):
        if self.running:
            raise KeyboardInterrupt
        # Arrived after the model's code finished: nothing to interrupt.

    # -- threads ------------------------------------------------------------

    def reader(self):
        try:
            while True:
                msg = self.channel.recv()
                if msg is None:
                    break
                kind = msg["type"]
                if kind == "reply":
                    self.on_reply(msg)
                elif kind == "interrupt":
                    if self.running:
                        self.interrupted = True
                        signal.pthread_kill(self.main_ident, signal.SIGINT)
                else:
                    self.requests.put(msg)
        except BaseException:  # noqa: BLE001
            pass
        # The host went away or broke the protocol: nothing left to serve.
        os._exit(0)

    def serve(self):
        while True:
            try:
                msg = self.requests.get()
                self.handle(msg)
            except KeyboardInterrupt:
                continue


_MISSING = object()


def _is_text_dict(data):
    return (
        isinstance(data, dict)
        and len(data) > 0
        and all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
    )


def kill_peers(allowed):
    if not allowed:
        return
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        return
    # Wait (briefly) for the killed children, so no zombie holds a process slot.
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except OSError:
            return
        if pid == 0:
            time.sleep(0.001)


def reap_children():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except OSError:
            return
        if pid == 0:
            return


def describe_syntax_error(e):
    lines = traceback.format_exception_only(type(e), e)
    out = {"type": type(e).__name__, "message": str(e.msg), "traceback": "".join(lines)}
    if e.lineno is not None:
        out["line"] = int(e.lineno)
    return out


def describe_error(e, filename):
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename.startswith(CELL_PREFIX)]
    text = ""
    if frames:
        text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    text += "".join(traceback.format_exception_only(type(e), e))
    out = {"type": type(e).__name__, "message": str(e), "traceback": text}
    here = [f for f in frames if f.filename == filename]
    if here and here[-1].lineno is not None:
        out["line"] = int(here[-1].lineno)
    return out


# ---------------------------------------------------------------------------
# grep


_MAX_LINE = 400


def _clip(line, col=0):
    if len(line) <= _MAX_LINE:
        return line
    start = max(0, min(col - _MAX_LINE // 4, len(line) - _MAX_LINE))
    head = "..." if start > 0 else ""
    tail = "..." if start + _MAX_LINE < len(line) else ""
    return head + line[start : start + _MAX_LINE] + tail


def grep(text, pattern, context=3, ignore_case=False, max_matches=200):
    """Lines of `text` matching `pattern` (a regex, or a plain keyword if not a valid one).

    Returns the matching lines with their 1-based numbers (`12: ...`) and `context`
    lines around them (`11- ...`), blocks separated by `--`. Works through the text
    without splitting it, so it is fine on very large strings. A dict is searched
    value by value, each block headed by its key.
    """
    if isinstance(text, dict):
        blocks = []
        for key, value in text.items():
            if isinstance(value, str):
                found = grep(value, pattern, context, ignore_case, max_matches)
                if found:
                    blocks.append("== %s ==\n%s" % (key, found))
        return "\n".join(blocks)
    if not isinstance(text, str):
        raise TypeError("grep(text, pattern) needs a str or a dict of str, got %s" % type(text).__name__)
    context = max(0, int(context))
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    if isinstance(pattern, re.Pattern):
        rx = pattern
    else:
        try:
            rx = re.compile(pattern, flags)
        except re.error:
            rx = re.compile(re.escape(pattern), flags)
    out = []
    n = len(text)
    pos = 0
    line_no = 1  # line number at offset `pos`
    prev_end_line = 0  # last line already printed
    matches = 0
    search_from = 0
    while search_from <= n:
        m = rx.search(text, search_from)
        if m is None:
            break
        s = m.start()
        line_no += text.count("\n", pos, s)
        pos = s
        line_start = text.rfind("\n", 0, s) + 1
        e = max(m.end(), s)
        # The match may span lines; its last line ends at the next newline after e-1.
        last_nl = text.find("\n", max(e - 1, s) if e > s else s)
        match_end = n if last_nl < 0 else last_nl
        span_lines = text.count("\n", s, match_end)
        first_line = line_no
        last_line = line_no + span_lines
        # Context before.
        ctx_start = line_start
        before = 0
        while before < context and ctx_start > 0:
            ctx_start = text.rfind("\n", 0, ctx_start - 1) + 1
            before += 1
        # Context after.
        ctx_end = match_end
        after = 0
        while after < context and ctx_end < n:
            nxt = text.find("\n", ctx_end + 1)
            ctx_end = n if nxt < 0 else nxt
            after += 1
        window_first = first_line - before
        lines = text[ctx_start:ctx_end].split("\n")
        if prev_end_line and window_first > prev_end_line + 1:
            out.append("--")
        for i, line in enumerate(lines):
            number = window_first + i
            if number <= prev_end_line:
                continue
            is_match = first_line <= number <= last_line
            col = (s - line_start) if number == first_line else 0
            out.append("%d%s %s" % (number, ":" if is_match else "-", _clip(line, col)))
        prev_end_line = max(prev_end_line, window_first + len(lines) - 1)
        matches += 1
        if matches >= max_matches:
            if rx.search(text, match_end + 1 if match_end < n else n + 1) is not None:
                out.append("[grep stopped after %d matches; narrow the pattern or raise max_matches]" % max_matches)
            break
        # Continue after the matched line(s).
        line_no = last_line
        pos = match_end
        search_from = match_end + 1
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Start-up


def start(channel):
    init = channel.recv()
    if init is None or init.get("type") != "init":
        os._exit(3)
    facts = {"notes": []}
    t0 = time.monotonic()
    context, shape = load_context(init["context"])
    facts["loadMs"] = (time.monotonic() - t0) * 1000.0

    process_limit = init.get("processLimit")
    if process_limit is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (int(process_limit), int(process_limit)))
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    file_limit = init.get("fileSizeLimit")
    if file_limit is not None:
        # Python ignores SIGXFSZ, so a write past the limit is an OSError (EFBIG) in the code.
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(file_limit), int(file_limit)))

    scratch = init["scratch"]
    os.chdir(scratch["home"])
    uid = init.get("uid")
    if uid is not None:
        drop_privileges(int(uid), int(init["gid"]))
    facts["noNewPrivs"] = set_no_new_privs()
    os.umask(0o077)

    memory = init.get("memoryLimit")
    if memory is None:
        vm = _status_field("VmSize") or "0 kB"
        memory = int(vm.split()[0]) * 1024 + int(init.get("memoryHeadroom", 4 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))

    worker = Worker(channel)
    worker.capture_limit = int(init.get("captureLimit", 1000000))
    worker.exchange_dir = scratch["exchange"]
    channel.max_out = int(init.get("maxFrame", channel.max_out))
    worker.owns_all_peers = os.getpid() == 1 or uid is not None
    helpers = worker.make_helpers()
    worker.reserved = dict(helpers, context=context)
    if init.get("answerDict", True):
        worker.reserved["answer"] = {"content": "", "ready": False}
    worker.ns = {"__name__": "__main__", "__builtins__": __builtins__}
    worker.ns.update(worker.reserved)
    del context

    signal.signal(signal.SIGINT, worker.on_sigint)
    ruid, euid, suid = os.getresuid()
    facts.update(
        {
            "uid": euid,
            "uids": [ruid, euid, suid],
            "gids": list(os.getresgid()),
            "groups": os.getgroups(),
            "capEff": _status_field("CapEff"),
            "netNs": _net_ns(),
            "nproc": list(resource.getrlimit(resource.RLIMIT_NPROC)),
            "as": list(resource.getrlimit(resource.RLIMIT_AS)),
            "fsize": list(resource.getrlimit(resource.RLIMIT_FSIZE)),
            "pid": os.getpid(),
            "python": sys.executable,
            "version": "%d.%d.%d" % sys.version_info[:3],
        }
    )
    threading.Thread(target=worker.reader, name="reclamo-channel", daemon=True).start()
    channel.send({"type": "ready", "shape": shape, "facts": facts})
    worker.serve()


def main():
    # Raw writes to fd 1 (by the code or anything it spawns) go where fd 2 goes.
    os.dup2(2, 1)
    os.set_inheritable(CHANNEL_FD, False)
    try:
        import faulthandler

        faulthandler.enable(file=sys.__stderr__)
    except Exception:
        pass
    channel = Channel(CHANNEL_FD, 512 * 1024 * 1024)
    try:
        start(channel)
    except ProtocolError:
        os._exit(3)
    except BaseException as e:  # noqa: BLE001 - tell the host why start-up failed
        try:
            channel.send({"type": "fatal", "error": "%s: %s" % (type(e).__name__, e)})
        except BaseException:
            pass
        os._exit(4)


if __name__ == "__main__":
    main()
