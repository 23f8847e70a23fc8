package main

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"net/url"
	"sync"
	"time"
)

const (
	stretchMinRounds = 100000
	stretchMinTime   = 600 * time.Millisecond // a floor, so a fast machine derives as hard a key
	stretchMaxRounds = 50000000
	historyLimit     = 20
)

type executeParams struct {
	CommandID string                     `json:"commandId"`
	Args      map[string]json.RawMessage `json:"args"`
	Invoker   json.RawMessage            `json:"invoker"`
	Initiator string                     `json:"initiator"`
	Confirmed bool                       `json:"confirmed"`
}

// problems collects what is wrong with a command's arguments (INVALID_PARAMS data).
type problems []string

func (p *problems) str(args map[string]json.RawMessage, name string, required bool) string {
	raw, ok := args[name]
	if !ok || isNull(raw) {
		if required {
			*p = append(*p, name+" is required")
		}
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		*p = append(*p, name+" must be a string")
	}
	return s
}

func (p *problems) integer(args map[string]json.RawMessage, name string, fallback int64) int64 {
	raw, ok := args[name]
	if !ok || isNull(raw) {
		return fallback
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		*p = append(*p, name+" must be an integer")
		return fallback
	}
	v, err := n.Int64()
	if err != nil {
		*p = append(*p, name+" must be an integer")
		return fallback
	}
	return v
}

func (c *conn) execute(id, rawParams json.RawMessage) {
	var p executeParams
	if json.Unmarshal(rawParams, &p) != nil {
		c.fail(id, rpcError{Code: invalidParams, Message: "params must be an object with commandId and args"})
		return
	}
	if p.Args == nil {
		p.Args = map[string]json.RawMessage{}
	}
	owner := principalID(p.Invoker)
	var bad problems
	var result interface{}
	var failure *rpcError
	switch p.CommandID {
	case "digest":
		text := bad.str(p.Args, "text", true)
		algorithm := bad.str(p.Args, "algorithm", false)
		if len(bad) == 0 {
			result, failure = c.digest(owner, text, algorithm)
		}
	case "encode":
		text := bad.str(p.Args, "text", true)
		scheme := bad.str(p.Args, "scheme", false)
		if len(bad) == 0 {
			result, failure = encode(text, scheme)
		}
	case "uuid":
		result, failure = newUUID()
	case "stretch":
		text := bad.str(p.Args, "text", true)
		rounds := bad.integer(p.Args, "rounds", stretchMinRounds)
		if rounds < 1 || rounds > stretchMaxRounds {
			bad = append(bad, fmt.Sprintf("rounds must be 1..%d", stretchMaxRounds))
		}
		if len(bad) == 0 {
			result = stretch(text, rounds)
		}
	case "show_history":
		result, failure = c.showHistory(owner)
	case "mirror_history":
		result, failure = c.mirrorHistory(owner)
	case "forget_history":
		// §10: the host never sends an unconfirmed dangerous command, and never lets the agent
		// confirm; refusing both here protects the user from a host bug.
		if !p.Confirmed || p.Initiator != "user" {
			failure = &rpcError{Code: pluginError, Message: "this command needs confirmation"}
		} else {
			n := c.history.forget(owner)
			result = map[string]interface{}{"payload": n, "message": fmt.Sprintf("forgot %d digests", n)}
		}
	default:
		c.fail(id, rpcError{Code: invalidParams, Message: "unknown command: " + p.CommandID})
		return
	}
	switch {
	case len(bad) > 0:
		c.fail(id, rpcError{Code: invalidParams, Message: "invalid arguments", Data: map[string]interface{}{"problems": bad}})
	case failure != nil:
		c.fail(id, *failure)
	default:
		c.reply(id, result)
	}
}

func principalID(raw json.RawMessage) string {
	var p struct {
		PrincipalID string `json:"principalId"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return ""
	}
	return p.PrincipalID
}

func (c *conn) digest(owner, text, algorithm string) (interface{}, *rpcError) {
	var h hash.Hash
	switch algorithm {
	case "", "sha256":
		algorithm, h = "sha256", sha256.New()
	case "sha1":
		h = sha1.New()
	case "sha512":
		h = sha512.New()
	case "md5":
		h = md5.New()
	default:
		return nil, &rpcError{Code: invalidParams, Message: "algorithm must be sha256, sha1, sha512 or md5"}
	}
	h.Write([]byte(text))
	sum := hex.EncodeToString(h.Sum(nil))
	c.history.add(owner, algorithm+":"+sum)
	c.log("info", "digest computed ("+algorithm+")")
	return map[string]interface{}{"payload": sum, "message": algorithm}, nil
}

func encode(text, scheme string) (interface{}, *rpcError) {
	var out string
	switch scheme {
	case "", "base64":
		out = base64.StdEncoding.EncodeToString([]byte(text))
	case "hex":
		out = hex.EncodeToString([]byte(text))
	case "url":
		out = url.QueryEscape(text)
	default:
		return nil, &rpcError{Code: invalidParams, Message: "scheme must be base64, hex or url"}
	}
	return map[string]interface{}{"payload": out}, nil
}

func newUUID() (interface{}, *rpcError) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, &rpcError{Code: pluginError, Message: "no randomness available"}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b[:])
	return map[string]interface{}{"payload": s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]}, nil
}

// stretch hashes until both the round count and the minimum time are reached.
func stretch(text string, rounds int64) interface{} {
	started := time.Now()
	sum := sha256.Sum256([]byte(text))
	done := int64(0)
	for done < rounds || time.Since(started) < stretchMinTime {
		sum = sha256.Sum256(sum[:])
		done++
		if done >= stretchMaxRounds {
			break
		}
	}
	return map[string]interface{}{
		"payload": map[string]interface{}{"rounds": done, "key": hex.EncodeToString(sum[:])},
		"message": fmt.Sprintf("%d rounds in %d ms", done, time.Since(started).Milliseconds()),
	}
}

// hostOutcome is what a command reports of the host's answer: its result, or its error object.
func hostOutcome(a hostAnswer) json.RawMessage {
	if !isNull(a.Error) {
		return a.Error
	}
	if isNull(a.Result) {
		return json.RawMessage("null")
	}
	return a.Result
}

func (c *conn) panelUpdate(panel, title string, items []string) (<-chan hostAnswer, error) {
	return c.call("rim.ui.update_panel", map[string]interface{}{"panelId": panel, "title": title, "items": items})
}

func (c *conn) showHistory(owner string) (interface{}, *rpcError) {
	ch, err := c.panelUpdate("hashbox", "Hashbox history", c.history.list(owner))
	if err != nil {
		return nil, &rpcError{Code: pluginError, Message: "could not reach the host"}
	}
	answer := <-ch
	return map[string]interface{}{"payload": hostOutcome(answer), "message": "panel updated"}, nil
}

// mirrorHistory sends both panel updates before waiting for either answer.
func (c *conn) mirrorHistory(owner string) (interface{}, *rpcError) {
	items := c.history.list(owner)
	first, err1 := c.panelUpdate("hashbox", "Hashbox history", items)
	second, err2 := c.panelUpdate("hashbox.pinned", "Hashbox pinned", items)
	if err1 != nil || err2 != nil {
		return nil, &rpcError{Code: pluginError, Message: "could not reach the host"}
	}
	answers := []json.RawMessage{hostOutcome(<-first), hostOutcome(<-second)}
	return map[string]interface{}{"payload": answers}, nil
}

// history keeps each person's recent digests under their principalId, a map key that
// rim.principals.remapped can rewrite; the id is never parsed.
type history struct {
	mu      sync.Mutex
	byOwner map[string][]string
}

func newHistory() *history { return &history{byOwner: map[string][]string{}} }

func (h *history) add(owner, entry string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := append(h.byOwner[owner], entry)
	if len(list) > historyLimit {
		list = list[len(list)-historyLimit:]
	}
	h.byOwner[owner] = list
}

func (h *history) list(owner string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := h.byOwner[owner]
	out := make([]string, 0, len(list))
	for i := len(list) - 1; i >= 0; i-- { // newest first
		out = append(out, list[i])
	}
	return out
}

func (h *history) forget(owner string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.byOwner[owner])
	delete(h.byOwner, owner)
	return n
}

// remap moves one person's history to their new id; applying a mapping twice changes nothing.
func (h *history) remap(from, to string) {
	if from == "" || to == "" || from == to {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if list, ok := h.byOwner[from]; ok {
		h.byOwner[to] = append(h.byOwner[to], list...)
		delete(h.byOwner, from)
	}
}
