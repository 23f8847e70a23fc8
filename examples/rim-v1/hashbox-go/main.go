// Command hashbox is a RIM plugin (protocol v1): digests, encodings, UUIDs and a slow key
// derivation, written from rim-plugin-protocol-v1.txt alone with Go's standard library.
//
// One goroutine reads stdin with blocking io.ReadFull calls, frame by frame, and answers the
// handshake and heartbeats itself; every command runs on its own goroutine, so heartbeats keep
// flowing while a command works. Every write to stdout holds one mutex, so frames never
// interleave.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"
)

const (
	pluginID      = "dev.hashbox.tools"
	version       = 1
	maxPayload    = 4 * 1024 * 1024 // §3: at most 4 MiB, both directions
	methodMissing = -32601
	invalidParams = -32602
	pluginError   = -32002
)

// message is one JSON-RPC 2.0 frame as received; the id stays raw so it is echoed unchanged.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type rpcError struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Data    interface{} `json:"data,omitempty"`
}

type conn struct {
	out     io.Writer
	writeMu sync.Mutex

	mu          sync.Mutex
	shaken      bool
	stopped     bool
	nextCall    int
	pending     map[string]chan hostAnswer
	principal   json.RawMessage // the signed-in Principal, or null
	history     *history
	commandWait sync.WaitGroup
}

// hostAnswer is the host's answer to one of our requests: its result or its error, raw.
type hostAnswer struct {
	Result json.RawMessage
	Error  json.RawMessage
}

func logf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "hashbox: "+format+"\n", args...)
}

// send writes one frame. A payload over the limit is never written.
func (c *conn) send(v interface{}) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) > maxPayload {
		return errors.New("frame over 4 MiB")
	}
	frame := make([]byte, 4+len(body))
	binary.LittleEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.mu.Lock()
	stopped := c.stopped
	c.mu.Unlock()
	if stopped {
		return errors.New("stopped") // §15: nothing is sent after rim.shutdown
	}
	_, err = c.out.Write(frame)
	return err
}

func (c *conn) reply(id json.RawMessage, result interface{}) {
	if err := c.send(map[string]interface{}{"jsonrpc": "2.0", "id": id, "result": result}); err != nil {
		if err.Error() == "frame over 4 MiB" {
			c.fail(id, rpcError{Code: pluginError, Message: "the result is larger than 4 MiB"})
			return
		}
		logf("write failed: %v", err)
	}
}

func (c *conn) fail(id json.RawMessage, e rpcError) {
	if err := c.send(map[string]interface{}{"jsonrpc": "2.0", "id": id, "error": e}); err != nil {
		logf("write failed: %v", err)
	}
}

func (c *conn) log(level, text string) {
	params := map[string]string{"level": level, "message": text}
	if err := c.send(map[string]interface{}{"jsonrpc": "2.0", "method": "rim.log", "params": params}); err != nil {
		logf("write failed: %v", err)
	}
}

// call sends a request to the host and returns a channel for its answer.
func (c *conn) call(method string, params interface{}) (<-chan hostAnswer, error) {
	c.mu.Lock()
	c.nextCall++
	id := fmt.Sprintf("hb-%d", c.nextCall)
	ch := make(chan hostAnswer, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	req := map[string]interface{}{"jsonrpc": "2.0", "id": id, "method": method, "params": params}
	if err := c.send(req); err != nil {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, err
	}
	return ch, nil
}

// validID: §5, an integer or a string, never null. Fractions, booleans and objects are not ids.
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return false
	}
	_, err := n.Int64()
	return err == nil
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// readFrame blocks until one whole frame has arrived. io.EOF: stdin closed between frames.
func readFrame(in io.Reader) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(in, header[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, io.EOF // end of input inside a header: a closed connection
		}
		return nil, err
	}
	length := binary.LittleEndian.Uint32(header[:])
	if length > maxPayload {
		return nil, fmt.Errorf("frame announces %d bytes, over the 4 MiB limit", length)
	}
	payload := make([]byte, length)
	if _, err := io.ReadFull(in, payload); err != nil {
		return nil, io.EOF // end of input inside a frame: a closed connection
	}
	return payload, nil
}

func (c *conn) dispatch(payload []byte) {
	if !utf8.Valid(payload) {
		logf("dropped a frame that is not UTF-8")
		return
	}
	trimmed := bytes.TrimSpace(payload)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		logf("dropped a frame that is not a JSON object")
		return
	}
	var m message
	if err := json.Unmarshal(trimmed, &m); err != nil || m.JSONRPC != "2.0" {
		logf("dropped a frame that is not JSON-RPC 2.0")
		return
	}
	switch {
	case m.Method != nil && !isNull(m.ID):
		if !validID(m.ID) {
			logf("dropped a request whose id is neither an integer nor a string")
			return
		}
		c.request(m)
	case m.Method != nil:
		c.notification(*m.Method, m.Params)
	case !isNull(m.ID):
		c.response(m)
	default:
		logf("dropped a frame that is neither request, notification nor response")
	}
}

func (c *conn) response(m message) {
	var key string
	if json.Unmarshal(m.ID, &key) != nil {
		return // our ids are strings: not ours
	}
	c.mu.Lock()
	ch, ok := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if ok {
		ch <- hostAnswer{Result: m.Result, Error: m.Error}
	}
}

func (c *conn) request(m message) {
	method := *m.Method
	c.mu.Lock()
	shaken := c.shaken
	c.mu.Unlock()
	switch {
	case method == "rim.handshake":
		c.handshake(m)
	case method == "rim.heartbeat":
		c.reply(m.ID, map[string]bool{"pong": true})
	case method == "rim.command.execute" && shaken:
		c.commandWait.Add(1)
		go func() {
			defer c.commandWait.Done()
			c.execute(m.ID, m.Params)
		}()
	default:
		c.fail(m.ID, rpcError{Code: methodMissing, Message: "method not found: " + method})
	}
}

type handshakeParams struct {
	SupportedVersions []json.Number   `json:"supportedVersions"`
	PluginID          string          `json:"pluginId"`
	Principal         json.RawMessage `json:"principal"`
}

func (c *conn) handshake(m message) {
	var p handshakeParams
	dec := json.NewDecoder(bytes.NewReader(m.Params))
	dec.UseNumber()
	_ = dec.Decode(&p) // a missing or odd field refuses below
	offered := false
	for _, v := range p.SupportedVersions {
		if v.String() == "1" {
			offered = true
		}
	}
	result := map[string]interface{}{"accepted": true, "protocolVersion": version, "pluginId": pluginID}
	switch {
	case !offered:
		result["accepted"] = false
		result["error"] = "this plugin speaks protocol 1, which the host did not offer"
	case p.PluginID != pluginID:
		result["accepted"] = false
		result["error"] = "this plugin is " + pluginID
	}
	if result["accepted"] == false {
		c.reply(m.ID, result)
		os.Exit(0) // §7: a plugin that refuses SHOULD exit right after its answer
	}
	c.mu.Lock()
	if len(p.Principal) > 0 {
		c.principal = p.Principal
	}
	c.shaken = true
	c.mu.Unlock()
	c.reply(m.ID, result)
}

func (c *conn) notification(method string, params json.RawMessage) {
	switch method {
	case "rim.shutdown":
		c.stop()
	case "rim.principal.changed":
		var p struct {
			Principal json.RawMessage `json:"principal"`
		}
		if json.Unmarshal(params, &p) == nil {
			c.mu.Lock()
			c.principal = p.Principal
			c.mu.Unlock()
		}
	case "rim.principals.remapped":
		var p struct {
			Mappings []struct {
				From string `json:"from"`
				To   string `json:"to"`
			} `json:"mappings"`
		}
		if json.Unmarshal(params, &p) == nil {
			for _, mp := range p.Mappings {
				c.history.remap(mp.From, mp.To)
			}
		}
	}
	// every other notification is ignored (§4)
}

// stop: §15, exit now; nothing more is written.
func (c *conn) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	os.Exit(0)
}

func main() {
	c := &conn{out: os.Stdout, pending: map[string]chan hostAnswer{}, history: newHistory()}
	c.log("info", "hashbox starting")
	for {
		payload, err := readFrame(os.Stdin)
		if err != nil {
			if err != io.EOF {
				logf("%v; stopping", err) // §3: an oversized frame ends the connection
				os.Exit(1)
			}
			os.Exit(0) // §6: end of stdin without rim.shutdown also means exit
		}
		c.dispatch(payload)
	}
}
