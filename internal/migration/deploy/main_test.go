package deploy_test

import (
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
