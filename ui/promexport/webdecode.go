package promexport

import "fmt"

// decodeWebConfig fills c from the web config's YAML, refusing any key it
// does not read (as yaml's UnmarshalStrict did), so a setting gpuscope
// does not implement is never silently ignored.
func decodeWebConfig(src []byte, c *webConfig) error {
	root, err := parseYAML(string(src))
	if err != nil {
		return err
	}
	if root.kind != 'm' {
		return fmt.Errorf("line %d: want a map of tls_server_config, http_server_config, basic_auth_users", root.line)
	}
	t := &c.TLS
	return eachKey(root, "", map[string]func(string, *yNode) error{
		"tls_server_config": func(at string, n *yNode) error {
			return eachKey(n, at, map[string]func(string, *yNode) error{
				"cert":                        str(&t.Cert),
				"key":                         str(&t.Key),
				"cert_file":                   str(&t.CertFile),
				"key_file":                    str(&t.KeyFile),
				"client_auth_type":            str(&t.ClientAuth),
				"client_ca_file":              str(&t.ClientCAFile),
				"client_ca":                   str(&t.ClientCA),
				"cipher_suites":               strs(&t.CipherSuites),
				"min_version":                 str(&t.MinVersion),
				"max_version":                 str(&t.MaxVersion),
				"prefer_server_cipher_suites": boolean(&t.PreferServerCipherSuites),
			})
		},
		"http_server_config": func(at string, n *yNode) error {
			return eachKey(n, at, map[string]func(string, *yNode) error{
				"http2": func(at string, n *yNode) error {
					if n.kind == 's' && n.null {
						return nil
					}
					v := new(bool)
					c.HTTP.HTTP2 = v
					return boolean(v)(at, n)
				},
				"headers": strMap(&c.HTTP.Headers),
			})
		},
		"basic_auth_users": strMap(&c.Users),
	})
}

// eachKey hands each key of map n to its reader; an unknown key, or n
// not a map, is an error naming where.
func eachKey(n *yNode, at string, read map[string]func(string, *yNode) error) error {
	if n.kind == 's' && n.null {
		return nil
	}
	if n.kind != 'm' {
		return fmt.Errorf("line %d: %s: want a map", n.line, at)
	}
	if at != "" {
		at += "."
	}
	for i, k := range n.keys {
		f, ok := read[k]
		if !ok {
			return fmt.Errorf("line %d: %s%s: not a key gpuscope reads", n.vals[i].line, at, k)
		}
		if err := f(at+k, n.vals[i]); err != nil {
			return err
		}
	}
	return nil
}

func str(dst *string) func(string, *yNode) error {
	return func(at string, n *yNode) error {
		if n.kind != 's' {
			return fmt.Errorf("line %d: %s: want text", n.line, at)
		}
		*dst = n.s
		return nil
	}
}

func strs(dst *[]string) func(string, *yNode) error {
	return func(at string, n *yNode) error {
		if n.kind == 's' && n.null {
			*dst = nil
			return nil
		}
		if n.kind != 'l' {
			return fmt.Errorf("line %d: %s: want a list", n.line, at)
		}
		*dst = make([]string, 0, len(n.vals))
		for _, v := range n.vals {
			if v.kind != 's' {
				return fmt.Errorf("line %d: %s: want a list of text", v.line, at)
			}
			*dst = append(*dst, v.s)
		}
		return nil
	}
}

func strMap(dst *map[string]string) func(string, *yNode) error {
	return func(at string, n *yNode) error {
		if n.kind == 's' && n.null {
			return nil
		}
		if n.kind != 'm' {
			return fmt.Errorf("line %d: %s: want a map", n.line, at)
		}
		*dst = make(map[string]string, len(n.keys))
		for i, k := range n.keys {
			if n.vals[i].kind != 's' {
				return fmt.Errorf("line %d: %s.%s: want text", n.vals[i].line, at, k)
			}
			(*dst)[k] = n.vals[i].s
		}
		return nil
	}
}

// boolean reads YAML 1.1's spellings, as the exporter-toolkit's yaml does.
func boolean(dst *bool) func(string, *yNode) error {
	return func(at string, n *yNode) error {
		if n.kind == 's' && n.null {
			*dst = false
			return nil
		}
		if n.kind == 's' {
			switch n.s {
			case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y":
				*dst = true
				return nil
			case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N":
				*dst = false
				return nil
			}
		}
		return fmt.Errorf("line %d: %s: want true or false", n.line, at)
	}
}
