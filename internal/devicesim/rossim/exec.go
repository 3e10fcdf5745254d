package rossim

import (
	"crypto/sha256"
	"encoding/base64"
	"maps"
	"strconv"
	"strings"
)

// console is one exec's output, in the router's line endings.
type console struct {
	b strings.Builder
}

// line prints one line; RouterOS's SSH server ends lines with CRLF (tools
// that exec `/export` over SSH, Oxidized among them, strip "\r\n").
func (c *console) line(s string) {
	c.b.WriteString(s)
	c.b.WriteString("\r\n")
}

// runScript parses script whole, then runs it command by command. A
// syntax error anywhere means nothing runs (assumption, listed in
// testdata/README.md); a runtime error stops the script at that command,
// and what the commands before it did stays done (MikroTik's Scripting
// manual, "Line structure": "Command lines are executed one by one until
// the end of the script or until a runtime error occurs").
// Either error is printed where the router prints it, on the console
// (stdout). It reports whether the script failed.
func (s *Sim) runScript(script string, out *console) bool {
	lines, serr := newLexer(script).script()
	var cmds []cmdLine
	if serr == nil {
		p := &parser{root: s.root, cwd: s.root, major: s.major}
		cmds, serr = p.script(lines)
	}
	if serr != nil {
		out.line(serr.Error())
		return true
	}
	for i := range cmds {
		if err := s.exec(&cmds[i], out); err != nil {
			out.line(err.msg)
			return true
		}
	}
	return false
}

func (s *Sim) exec(c *cmdLine, out *console) *runtimeErr {
	switch c.kind {
	case cmdCD, cmdNoop:
		return nil
	case cmdPut:
		v := ""
		if c.put != nil {
			var err *runtimeErr
			if v, err = s.argValue(c, c.put); err != nil {
				return err
			}
		}
		out.line(v)
		return nil
	}
	t := c.node.table
	switch c.verb {
	case "export":
		s.export(c.node, c.flags, out)
	case "print":
		return s.print(c, out)
	case "monitor":
		return s.monitor(c, out)
	case "add":
		return s.add(c, t)
	case "set":
		return s.set(c, t, c.args)
	case "enable", "disable":
		return s.set(c, t, []token{{kind: tArg, text: "disabled", op: "=", val: &token{kind: tWord, text: yesNo(c.verb == "disable")}}})
	case "remove":
		return s.remove(c, t)
	case "move":
		return s.move(c, t)
	case "get":
		v, err := s.get(c, &subCommand{node: c.node, verb: "get", sel: c.sel, attr: c.attr})
		if err != nil {
			return err
		}
		out.line(v)
	case "find":
		// Its result is only of use inside [ ]; alone it prints nothing.
	}
	return nil
}

// argValue is the value of an argument token: its text, or what the
// command in [ ] returns (an attribute for get, internal ids for find).
func (s *Sim) argValue(c *cmdLine, v *token) (string, *runtimeErr) {
	if v.kind != tBracket {
		return v.text, nil
	}
	sc := c.brack[v]
	if sc.verb == "get" {
		return s.get(c, sc)
	}
	items, err := s.find(sc)
	if err != nil {
		return "", err
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.idString()
	}
	return strings.Join(ids, ";"), nil
}

func (s *Sim) add(c *cmdLine, t *table) *runtimeErr {
	it := s.newItem(t)
	var before *token
	for i := range c.args {
		a := &c.args[i]
		if a.text == "place-before" {
			before = a.val
			continue
		}
		v, err := s.argValue(c, a.val)
		if err != nil {
			return err
		}
		if it.vals[a.text], err = s.check(t.m.attrs[a.text], v); err != nil {
			return err
		}
	}
	var missing []string
	for _, n := range t.m.names {
		if t.m.attrs[n].required && it.vals[n] == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fail("missing value(s) of argument(s) " + strings.Join(missing, ", "))
	}
	if t.m.autoname != "" && it.vals["name"] == "" {
		it.vals["name"] = s.autoName(t)
	}
	for _, n := range t.m.names {
		if a := t.m.attrs[n]; a.hasFill {
			if _, ok := it.vals[n]; !ok {
				it.vals[n] = a.fill
			}
		}
	}
	s.derive(t, it, nil)
	if err := s.checkUnique(t, it); err != nil {
		return err
	}
	at := -1
	if before != nil {
		items, err := s.resolve(c, t, before)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			at = t.index(items[0])
		}
	}
	t.insert(it, at)
	return nil
}

// derive fills what the router computes: an address's network, a
// WireGuard interface's private key.
func (s *Sim) derive(t *table, it *item, written map[string]bool) {
	switch t.m.path {
	case "/ip address":
		if _, ok := it.vals["network"]; !ok || (written["address"] && !written["network"]) {
			it.vals["network"] = networkOf(it.vals["address"])
		}
	case "/interface wireguard":
		if it.vals["private-key"] == "" {
			sum := sha256.Sum256([]byte("rossim wireguard " + it.idString()))
			it.vals["private-key"] = base64.StdEncoding.EncodeToString(sum[:])
		}
	}
}

// autoName is the name `add` gives when none is written: the menu's
// prefix and the first free number (bridge1, l2tp-out1, ...).
func (s *Sim) autoName(t *table) string {
	for n := 1; ; n++ {
		name := t.m.autoname + strconv.Itoa(n)
		if t.byName(name) == nil && (!t.m.iface || s.findInterface(name) == "") {
			return name
		}
	}
}

// checkUnique refuses an item that repeats another's unique attributes.
func (s *Sim) checkUnique(t *table, it *item) *runtimeErr {
	if t.m.iface {
		name := t.value(it, "name")
		for _, ot := range s.interfaceTables() {
			for _, o := range ot.items {
				if o != it && ot.value(o, "name") == name {
					return fail("failure: already have interface with such name")
				}
			}
		}
	}
	if len(t.m.unique) == 0 {
		return nil
	}
	for _, o := range t.items {
		if o == it {
			continue
		}
		same := true
		for _, k := range t.m.unique {
			if t.value(o, k) != t.value(it, k) {
				same = false
				break
			}
		}
		if same {
			return fail(t.m.uniqueMsg)
		}
	}
	return nil
}

func (s *Sim) set(c *cmdLine, view *table, args []token) *runtimeErr {
	items := view.items
	if view.m.list {
		var err *runtimeErr
		if items, err = s.resolve(c, view, c.sel); err != nil {
			return err
		}
	}
	for _, it := range items {
		t := it.owner
		old := maps.Clone(it.vals)
		written := map[string]bool{}
		for i := range args {
			a := &args[i]
			written[a.text] = true
			at := t.m.attrs[a.text]
			if at == nil || at.ro {
				// Set through /interface: this kind of interface has no
				// such property.
				it.vals = old
				return fail("failure: " + a.text + " can not be set for this interface")
			}
			if a.kind == tBang {
				delete(it.vals, a.text)
				continue
			}
			v, err := s.argValue(c, a.val)
			if err == nil {
				v, err = s.check(at, v)
			}
			if err != nil {
				it.vals = old
				return err
			}
			it.vals[a.text] = v
		}
		s.derive(t, it, written)
		if err := s.checkUnique(t, it); err != nil {
			it.vals = old
			return err
		}
	}
	return nil
}

func (s *Sim) remove(c *cmdLine, t *table) *runtimeErr {
	items, err := s.resolve(c, t, c.sel)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.builtin {
			return fail("failure: default item can not be removed")
		}
	}
	for _, it := range items {
		t.remove(it)
		delete(s.up, t.value(it, "name"))
	}
	return nil
}

// move puts the named items before print number destination (the end
// when it is past the last item).
func (s *Sim) move(c *cmdLine, t *table) *runtimeErr {
	items, err := s.resolve(c, t, c.sel)
	if err != nil {
		return err
	}
	dest := -1
	for _, a := range c.args {
		v, err := s.argValue(c, a.val)
		if err != nil {
			return err
		}
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 0 {
			return invalid("destination")
		}
		dest = n
	}
	var anchor *item
	if dest >= 0 && dest < len(t.items) {
		anchor = t.items[dest]
	}
	for _, it := range items {
		if it == anchor {
			continue
		}
		t.remove(it)
		at := -1
		if anchor != nil {
			at = t.index(anchor)
		}
		t.insert(it, at)
	}
	return nil
}
