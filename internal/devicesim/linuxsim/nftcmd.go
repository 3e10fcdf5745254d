package linuxsim

import (
	"fmt"
	"strings"
)

// cmdNft is nft(8): `nft -f -` (or -f /dev/stdin) with table blocks,
// `nft [-j] list table FAMILY NAME`, `nft delete table FAMILY NAME` and
// `nft delete chain FAMILY TABLE CHAIN`.
func cmdNft(c *call) int {
	st := &c.sh.r.nft
	args := c.args[1:]
	json := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-j", "--json":
			json = true
			args = args[1:]
		case "-f", "--file":
			if len(args) != 2 || (args[1] != "-" && args[1] != "/dev/stdin") {
				c.errorf("linuxsim: only `nft -f -` (stdin) is simulated")
				return 1
			}
			decls, err := parseNftFile(string(c.stdin))
			if err != nil {
				c.errorf("%v", err)
				return 1
			}
			st.apply(decls)
			return 0
		default:
			c.errorf("nft: unrecognized option '%s'", args[0])
			return 1
		}
	}
	if len(args) < 3 {
		return nftSyntax(c, args)
	}
	verb, kind, rest := args[0], args[1], args[2:]
	family := "ip"
	if nftFamilies[rest[0]] {
		family, rest = rest[0], rest[1:]
	}
	cmdline := strings.Join(args, " ")
	switch {
	case verb == "list" && kind == "table" && len(rest) == 1:
		t := st.table(family, rest[0])
		if t == nil {
			return nftNoSuch(c, "", cmdline, rest[0])
		}
		if json {
			fmt.Fprintln(c.stdout, t.json())
		} else {
			fmt.Fprint(c.stdout, t.text())
		}
		return 0
	case verb == "delete" && kind == "table" && len(rest) == 1:
		t := st.table(family, rest[0])
		if t == nil {
			return nftNoSuch(c, "Could not process rule: ", cmdline, rest[0])
		}
		st.deleteTable(t)
		return 0
	case verb == "delete" && kind == "chain" && len(rest) == 2:
		t := st.table(family, rest[0])
		if t == nil {
			return nftNoSuch(c, "Could not process rule: ", cmdline, rest[0])
		}
		ch := t.chain(rest[1])
		if ch == nil {
			return nftNoSuch(c, "Could not process rule: ", cmdline, rest[1])
		}
		// The kernel drops the chain's rules with it.
		for i, x := range t.chains {
			if x == ch {
				t.chains = append(t.chains[:i], t.chains[i+1:]...)
				break
			}
		}
		return 0
	}
	return nftSyntax(c, args)
}

// nftNoSuch prints nft's error with the command and a caret line under the
// missing object, and exits 1.
func nftNoSuch(c *call, prefix, cmdline, name string) int {
	at := strings.LastIndex(cmdline, name)
	c.errorf("Error: %sNo such file or directory\n%s\n%s%s", prefix, cmdline, strings.Repeat(" ", at), strings.Repeat("^", len(name)))
	return 1
}

func nftSyntax(c *call, args []string) int {
	c.errorf("Error: syntax error, unexpected end of file (linuxsim: nft %s is not simulated)", strings.Join(args, " "))
	return 1
}
