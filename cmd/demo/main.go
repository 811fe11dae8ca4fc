// Command demo shows goten's broadcasting, type promotion and views.
package main

import "fmt"

func main() { fmt.Println("goten: under construction") }
