package routeros

import (
	"context"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Where routerlab's filter rules go. RouterOS evaluates a chain's rules
// in order and appends what `add` adds at the end of the list
// (https://help.mikrotik.com/docs/spaces/ROS/pages/48660574/Filter). On a
// router with MikroTik's default configuration
// (https://help.mikrotik.com/docs/spaces/ROS/pages/167706788/Default+configurations;
// the rules as published exports show them, "defconf: ..." comments,
// e.g. andyshinn/kuberdoo config/ros_default.rsc on 6.40 and
// a-lexx/configs mikrotik/v7.6/fulcrum.rsc on 7.6) an appended input
// accept lands after "drop all not coming from LAN", and an appended
// fasttrack rule after "accept established,related, untracked": neither
// is ever reached. So every rule routerlab adds goes before the rule it
// must precede, with `add ... place-before=[ find ... ]`, the form the
// RouterOS console manual shows
// (https://help.mikrotik.com/docs/spaces/ROS/pages/328134/Command+Line+Interface:
// `add chain=forward place-before=[find where comment=CommentX]`).
//
// The target is computed from the router's export read just before the
// write, and named by its chain and comment (or, when that is not unique,
// every argument it has), never by an item number: numbers come from the
// console's last print and count dynamic rules the export leaves out,
// such as the "special dummy rule to show fasttrack counters" RouterOS
// shows first while a fasttrack rule exists. When the chain has no rule
// to precede, nothing is written and `add` appends (an empty
// `place-before=` is no documented form).
//
// Which rule each of routerlab's rules precedes:
//   - the fasttrack rule: the first rule of forward but itself (it only
//     marks established and related connections, so nothing before it
//     may accept them first);
//   - a tunnel's input accepts: the first rule of input that is not
//     another tunnel's accept (routerlab_firewall's and foreign rules,
//     drops among them, come after);
//   - routerlab_firewall's rules: the first rule of their chain that is
//     not routerlab's (they keep their own order, and come after the
//     tunnels' accepts and the fasttrack rule).

const filterMenu = "/ip firewall filter"

// filterExportCommand reads the filter rules alone, in the terse form the
// snapshot's `/export terse` uses; `export` works at any menu level
// (Command Line Interface manual, above). The filter holds no secrets, so
// v6's hide-sensitive is not needed.
const filterExportCommand = filterMenu + " export terse"

// ownedRule reports a comment routerlab writes on filter rules.
func ownedRule(comment string) bool { return strings.HasPrefix(comment, OwnerComment) }

// beforeForeign: routerlab_firewall's rules precede the first rule that
// is not routerlab's.
func beforeForeign(comment string) bool { return !ownedRule(comment) }

// beforeAny: the fasttrack rule precedes the first rule but itself.
func beforeAny(comment string) bool { return comment != FasttrackComment }

// beforeFirewall: a tunnel's accepts precede routerlab_firewall's rules
// and every foreign rule.
func beforeFirewall(comment string) bool { return comment == FirewallComment || !ownedRule(comment) }

// placeBefore is the `place-before=[ find ... ]` argument (with its
// leading blank) that puts a new rule of chain before the first rule of
// that chain in exp's filter that isTarget accepts, by its comment; ""
// when there is none (or no export), so that `add` appends.
func placeBefore(exp *Export, chain string, isTarget func(comment string) bool) string {
	if exp == nil {
		return ""
	}
	sec := exp.Section(filterMenu)
	if sec == nil {
		return ""
	}
	var rules []Item
	for _, it := range sec.Items {
		if it.Verb == "add" {
			rules = append(rules, it)
		}
	}
	for _, it := range rules {
		if get(it, "chain", "") != chain || !isTarget(get(it, "comment", "")) {
			continue
		}
		var b strings.Builder
		b.WriteString(" place-before=")
		writeCLISelector(&b, Selector{Find: targetFind(it, rules)})
		return b.String()
	}
	return ""
}

// targetFind is what `find` matches the target rule by: chain and
// comment when no other rule has both, or else all of its arguments.
func targetFind(target Item, rules []Item) map[string]string {
	byComment := map[string]string{"chain": get(target, "chain", ""), "comment": get(target, "comment", "")}
	if byComment["comment"] != "" {
		n := 0
		for _, it := range rules {
			if get(it, "chain", "") == byComment["chain"] && get(it, "comment", "") == byComment["comment"] {
				n++
			}
		}
		if n == 1 {
			return byComment
		}
	}
	all := map[string]string{}
	for _, a := range target.Attrs {
		if !a.Bare && a.Value != "" {
			all[a.Key] = a.Value
		}
	}
	return all
}

// addRule renders `add` of one filter rule, placed as placeBefore says.
func addRule(attrs []Attr, placement string) string {
	return Command(filterMenu, "add", Selector{}, attrs...) + placement
}

// readFilter reads the router's filter rules, for placing new ones.
func (d *Driver) readFilter(ctx context.Context) (*Export, error) {
	res, err := d.t.Run(ctx, filterExportCommand)
	if err != nil {
		return nil, fmt.Errorf("reading the firewall filter: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading the firewall filter", res)
	}
	exp, err := ParseExport(res.Stdout)
	if err != nil {
		return nil, fmt.Errorf("reading the firewall filter: %w", err)
	}
	return exp, nil
}
