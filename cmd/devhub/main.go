// Command devhub is the whole product: the web server and the owner's CLI.
package main

import (
	"os"

	"github.com/devhub/devhub/pkg/cli"
)

func main() { os.Exit(cli.Execute()) }
