// render-sigil renders a Dokku nginx.conf.sigil the way gliderlabs/sigil does (Go's text/template, the variables as
// a map so `.VAR` and `$.VAR` work, missing keys print "<no value>"), with the sigil functions Dokku templates and
// this project's fixes use. gliderlabs/sigil itself cannot be fetched here, so this is the stand-in the tests build.
//
// Usage: render-sigil <template> <vars.json>   (vars.json: an object of string values; output on stdout)
//
// The functions follow sigil's builtin package: piped values come last (`.X | split " "` is split(" ", .X)).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"text/template"
)

// str turns a template value into a string the way sigil.String does for the values templates pass around.
func str(in interface{}) (string, bool) {
	switch v := in.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case fmt.Stringer:
		return v.String(), true
	case bool, int, int64, float64:
		return fmt.Sprint(v), true
	}
	return "", false
}

func split(delim string, in interface{}) ([]interface{}, error) {
	s, ok := str(in)
	if !ok {
		return nil, fmt.Errorf("split must be given a string")
	}
	var elements []interface{}
	for _, v := range strings.Split(s, delim) {
		elements = append(elements, v)
	}
	return elements, nil
}

func join(delim string, in []interface{}) string {
	var elements []string
	for _, el := range in {
		if s, ok := el.(string); ok {
			elements = append(elements, s)
		}
	}
	return strings.Join(elements, delim)
}

// dflt is sigil's `default`: the value when `in` is nil or its type's zero value ("" for strings).
func dflt(value, in interface{}) interface{} {
	if in == nil || reflect.Zero(reflect.TypeOf(in)).Interface() == in {
		return value
	}
	return in
}

func stringFunc(name string, f func(string) string) func(interface{}) (interface{}, error) {
	return func(in interface{}) (interface{}, error) {
		s, ok := str(in)
		if !ok {
			return "", fmt.Errorf("%s must be given a string", name)
		}
		return f(s), nil
	}
}

func replace(old, new string, in interface{}) (interface{}, error) {
	s, ok := str(in)
	if !ok {
		return "", fmt.Errorf("replace must be given a string")
	}
	return strings.ReplaceAll(s, old, new), nil
}

func seq(in interface{}) ([]interface{}, error) {
	s, _ := str(in)
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, fmt.Errorf("seq must be given an integer or numeric string")
	}
	var elements []interface{}
	for i := 0; i < n; i++ {
		elements = append(elements, strconv.Itoa(i))
	}
	return elements, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: render-sigil <template> <vars.json>")
		os.Exit(2)
	}
	text, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rawVars, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vars := map[string]interface{}{}
	if err := json.Unmarshal(rawVars, &vars); err != nil {
		fmt.Fprintln(os.Stderr, "vars:", err)
		os.Exit(1)
	}
	funcs := template.FuncMap{
		"split":   split,
		"join":    join,
		"default": dflt,
		// sigil's `var` reads the environment, which sigil fills with the variables it is given.
		"var": func(name string) interface{} {
			if v, ok := vars[name]; ok {
				return v
			}
			return os.Getenv(name)
		},
		// Templates ask whether a file exists (sigil looks it up on its search path; here: the path itself).
		"exists": func(name string) bool {
			_, err := os.Stat(name)
			return err == nil
		},
		"trim":       stringFunc("trim", func(s string) string { return strings.Trim(s, " \n") }),
		"lower":      stringFunc("lower", strings.ToLower),
		"upper":      stringFunc("upper", strings.ToUpper),
		"capitalize": stringFunc("capitalize", strings.Title),
		"replace":    replace,
		"seq":        seq,
	}
	tmpl, err := template.New(os.Args[1]).Funcs(funcs).Parse(string(text))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := tmpl.Execute(os.Stdout, vars); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
