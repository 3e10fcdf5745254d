package linuxsim

import (
	"errors"
	"fmt"
	"strings"
)

// cmdNft is nft(8): `nft [-j] -f -|/dev/stdin|FILE` and `nft [-j]
// COMMAND...` (the arguments joined, as nft does). -j applies to list
// commands of a table.
func cmdNft(c *call) int {
	st := &c.sh.r.nft
	args := c.args[1:]
	json := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-j", "--json":
			json = true
			args = args[1:]
		case "-c", "--check":
			args = args[1:]
			saved := st.clone()
			defer func() { *st = saved }()
		case "-f", "--file":
			if len(args) != 2 {
				c.errorf("Error: syntax error, -f needs a file (linuxsim)")
				return 1
			}
			src := string(c.stdin)
			if args[1] != "-" && args[1] != "/dev/stdin" {
				data, e := c.sh.r.readFile(cleanPath(c.sh.cwd, args[1]))
				if e != "" {
					c.errorf("Error: Could not open file \"%s\": %s\n", args[1], e)
					return 1
				}
				src = string(data)
			}
			out, err := st.runTx(src)
			if err != nil {
				return nftFail(c, err, src, true)
			}
			fmt.Fprint(c.stdout, out)
			return 0
		default:
			c.errorf("nft: unrecognized option '%s'", args[0])
			return 1
		}
	}
	cmdline := strings.Join(args, " ")
	if json && len(args) >= 3 && args[0] == "list" && args[1] == "table" {
		family, name := "ip", args[2]
		if len(args) == 4 {
			family, name = args[2], args[3]
		}
		if t := st.table(family, name); t != nil && len(args) <= 4 {
			fmt.Fprintln(c.stdout, t.json())
			return 0
		}
	}
	out, err := st.runTx(cmdline)
	if err != nil {
		return nftFail(c, err, cmdline, false)
	}
	fmt.Fprint(c.stdout, out)
	return 0
}

func nftFail(c *call, err error, src string, file bool) int {
	var ne *nftError
	if errors.As(err, &ne) {
		c.errorf("%s", ne.format(src, file))
	} else {
		c.errorf("Error: %v", err)
	}
	return 1
}
