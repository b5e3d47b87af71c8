package tidb

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"ariga.io/atlas/sql/schema"
)

// Lock implements schema.Locker with GET_LOCK, as Atlas's MySQL driver does.
// TiDB implements GET_LOCK with pessimistic transactions on an internal
// table: while several sessions wait for one lock, some get "pessimistic lock
// retry limit reached" or "lock wait timeout" as error 1105 instead of an
// answer, sometimes before their timeout. Such a session has not got the
// lock and may keep waiting, so it asks again until the timeout, after which
// the lock is reported held (schema.ErrLocked).
func (d *atlasDriver) Lock(ctx context.Context, name string, timeout time.Duration) (schema.UnlockFunc, error) {
	drv, err := d.plain()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		unlock, err := drv.Lock(ctx, name, max(time.Until(deadline), 0))
		if err == nil || !lockContention(err) {
			return unlock, err
		}
		if time.Now().After(deadline) {
			return nil, schema.ErrLocked
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(50+rand.IntN(150)) * time.Millisecond):
		}
	}
}

func lockContention(err error) bool {
	if errors.Is(err, schema.ErrLocked) {
		return false
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "pessimistic lock retry limit reached") || strings.Contains(msg, "lock wait timeout")
}
