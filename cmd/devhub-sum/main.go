// Command devhub-sum prints the SHA-256 of each file it is given, in the
// format of sha256sum, so a visitor can check a download against the
// checksum its page shows. It is the example program the download section
// ships with (content/downloads): built by `make build` for Windows.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: devhub-sum FILE...")
		os.Exit(2)
	}
	code := 0
	for _, name := range os.Args[1:] {
		sum, err := fileSum(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "devhub-sum:", err)
			code = 1
			continue
		}
		fmt.Printf("%s  %s\n", sum, name)
	}
	os.Exit(code)
}

func fileSum(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
