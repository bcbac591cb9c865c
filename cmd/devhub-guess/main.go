// Command devhub-guess is a tiny console game: guess the number from 1 to
// 100 in as few tries as you can. It is the example game the /alavar
// download section ships with (content/downloads): built by `make build`
// for Windows.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

func main() {
	secret := rand.IntN(100) + 1
	in := bufio.NewScanner(os.Stdin)
	fmt.Println("I am thinking of a number from 1 to 100. Your guess?")
	for tries := 1; in.Scan(); tries++ {
		n, err := strconv.Atoi(strings.TrimSpace(in.Text()))
		switch {
		case err != nil || n < 1 || n > 100:
			fmt.Println("A whole number from 1 to 100, please.")
			tries--
		case n < secret:
			fmt.Println("Higher.")
		case n > secret:
			fmt.Println("Lower.")
		default:
			fmt.Printf("Yes, %d! You found it in %d tries.\n", secret, tries)
			fmt.Println("Press Enter to close.")
			in.Scan()
			return
		}
	}
}
