package cli

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"
)

// Every command a user can reach says what it does and shows an example,
// and runnable commands never print usage on a runtime error.
func TestEveryCommandIsDocumented(t *testing.T) {
	env := &Env{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	root := NewRootCmd(env, nil)
	var walk func(c *cobra.Command)
	count := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		count++
		t.Run(c.CommandPath(), func(t *testing.T) {
			if c.Short == "" {
				t.Error("no Short")
			}
			if c.Example == "" {
				t.Error("no Example")
			}
			if c.Runnable() && !c.SilenceUsage && !root.SilenceUsage {
				t.Error("usage would be printed on runtime errors")
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if count < 20 {
		t.Fatalf("only %d commands found; the tree is not what the CLI contract lists", count)
	}
}
