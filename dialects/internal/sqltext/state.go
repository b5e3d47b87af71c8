package sqltext

import (
	"fmt"

	"ariga.io/atlas/schemahcl"
	"ariga.io/atlas/sql/schema"
	"github.com/zclconf/go-cty/cty"
)

// stateName names the schema in stored states, whose schemas are unnamed.
const stateName = "state"

// MarshalState stores an unnamed schema as Atlas's HCL of a dialect.
func MarshalState(s *schema.Schema, marshal schemahcl.MarshalerFunc) ([]byte, error) {
	name := s.Name
	s.Name = stateName
	defer func() { s.Name = name }()
	return marshal(s)
}

// UnmarshalState reads a schema stored by MarshalState, unnamed again.
func UnmarshalState(b []byte, eval func([]byte, any, map[string]cty.Value) error) (*schema.Schema, error) {
	var r schema.Realm
	if err := eval(b, &r, nil); err != nil {
		return nil, err
	}
	if len(r.Schemas) != 1 {
		return nil, fmt.Errorf("stored state holds %d schemas", len(r.Schemas))
	}
	s := r.Schemas[0]
	s.Name = ""
	return s, nil
}
