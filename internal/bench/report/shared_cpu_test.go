package report

import (
	"strings"
	"testing"
)

// A DUT whose CPU counters are its host's (a namespace lab's router) gets
// a note saying so in the Markdown, and keeps the reason through run.json;
// a DUT without it gets no such note.
func TestSharedCPUNote(t *testing.T) {
	r := seed004()
	if len(r.DUTs) == 0 {
		t.Fatal("seed004 has no DUT")
	}
	if strings.Contains(Markdown(r), "whole host's") {
		t.Fatal("a DUT with its own CPU counters is noted as sharing them")
	}
	const why = "it is a network namespace on a shared kernel; the iperf3 endpoints a, b run on it"
	r.DUTs[0].SharedCPU = why
	want := "CPU of DUT " + md(r.DUTs[0].Device) + " is the whole host's, not the router's own: " + md(why) + ".\n"
	if got := Markdown(r); !strings.Contains(got, want) {
		t.Errorf("Markdown lacks the note %q:\n%s", want, got)
	}
	b, err := JSON(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.DUTs[0].SharedCPU != why {
		t.Errorf("after run.json: SharedCPU = %q, want %q", back.DUTs[0].SharedCPU, why)
	}
}
