package linuxsim

import "fmt"

// Drift setters for nftables: what an operator does with `nft delete
// rule|chain` in routerlab's table (inet routerlab).

// DeleteNftChain is `nft delete chain inet routerlab NAME`: the chain and
// its rules go (firewall fw_* chains, tunnel_*_mss, pppoe_*_mss, the
// conntrack chains). The table stays even when it is left empty.
func (r *Router) DeleteNftChain(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.nft.runTx("delete chain inet " + nftTable + " " + name)
	return err
}

// DeleteNftRule is `nft delete rule inet routerlab CHAIN handle H` for
// the chain's index-th rule (0 is the first).
func (r *Router) DeleteNftRule(chain string, index int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.nft.table("inet", nftTable)
	if t == nil || t.chain(chain) == nil {
		return fmt.Errorf("linuxsim: no chain %s in table inet %s", chain, nftTable)
	}
	c := t.chain(chain)
	if index < 0 || index >= len(c.rules) {
		return fmt.Errorf("linuxsim: chain %s has %d rules, no rule %d", chain, len(c.rules), index)
	}
	c.rules = append(c.rules[:index], c.rules[index+1:]...)
	return nil
}

// AddNftRule is `nft add rule inet routerlab CHAIN RULE` (nft's syntax,
// the forms nftrule.go knows), e.g. a rule added by hand to a chain of
// routerlab's.
func (r *Router) AddNftRule(chain, rule string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.nft.runTx("add rule inet " + nftTable + " " + chain + " " + rule)
	return err
}
