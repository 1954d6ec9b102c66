//! The Redis side of the cluster: every key, every script, every call, each bounded in time.
//!
//! ## Why the `redis` crate
//! `redis` (redis-rs) is the most used and maintained Redis client for Rust; with `tokio-comp`
//! and `connection-manager` it gives one multiplexed connection that reconnects by itself, with
//! connection and response timeouts, and `script` runs the small Lua scripts below with
//! `EVALSHA` (falling back to `EVAL`). `fred` would do too, but brings a larger API and more
//! compile time for the half-dozen commands used here.
//!
//! ## Keys (all under `sevenbag:`)
//! - `instance:{id}` → the instance's public URL, with a TTL refreshed by its heartbeat: the
//!   one source of truth for "is that instance alive".
//! - `room:{code}` → the id of the instance that runs the room, same TTL, refreshed too.
//! - `quick` (sorted set): instances that have a quick-match player waiting, scored by when the
//!   player started waiting (Unix ms).
//! - `ranked` (sorted set): `{instance}|{client}|{rating}` per ranked player waiting, scored
//!   the same way.
//! - `quick-reserved:{instance}`, `ranked-reserved:{member}`: a queue entry another instance
//!   has just sent a player to, for [`RESERVE_MS`].
//! - `ffa` (hash): instance id → `{count}|{since}` per instance with players in its
//!   free-for-all queue: how many wait there and since when (Unix ms) the longest has waited.
//!
//! One pub/sub channel, `social`, carries presence, friendships and notifications between
//! the instances (its records: `crate::cluster::social`); it is read on a connection of its
//! own, since a subscribed connection can do nothing else.
//!
//! The scripts read `instance:*` keys they are not passed in `KEYS`, so they need a single
//! Redis (or a primary with replicas), not Redis Cluster's sharding — which this load is far
//! from needing.

use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{AsyncCommands, Script};

use crate::ranked::{WINDOW_ANY, WINDOW_GROWTH, WINDOW_START};

/// Longest any one Redis call may take before it counts as failed.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a Redis call failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StoreError {
    /// Redis answered with an error, or the connection failed.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    /// No answer within [`CALL_TIMEOUT`].
    #[error("redis did not answer within {0:?}")]
    Timeout(Duration),
}

async fn bounded<T>(call: impl Future<Output = redis::RedisResult<T>>) -> Result<T, StoreError> {
    match tokio::time::timeout(CALL_TIMEOUT, call).await {
        Ok(r) => Ok(r?),
        Err(_) => Err(StoreError::Timeout(CALL_TIMEOUT)),
    }
}

/// Sets each room key to this instance unless another instance holds it. Returns how many
/// keys are ours after the call.
const CLAIM_ROOMS: &str = r"
local n = 0
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if (not owner) or owner == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    n = n + 1
  end
end
return n
";

/// Deletes a room key if it is this instance's.
const RELEASE_ROOM: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// The public URL of the live instance, other than this one, that holds a room.
const LOCATE_ROOM: &str = r"
local owner = redis.call('GET', KEYS[1])
if (not owner) or owner == ARGV[1] then
  return false
end
return redis.call('GET', ARGV[2] .. owner)
";

/// Reserves the oldest quick-match entry of another live instance older than (ARGV[3],
/// ARGV[1]) (any age if ARGV[3] is empty) for [`RESERVE_MS`] and returns that instance's URL.
/// A reserved entry stays in the queue (its instance withdraws it once its player is paired)
/// but nobody else is sent there meanwhile; if the redirected player never arrives, the
/// reservation lapses. Entries of dead instances are dropped on the way.
const CLAIM_QUICK: &str = r"
local entries = redis.call('ZRANGE', KEYS[1], 0, 63, 'WITHSCORES')
for i = 1, #entries, 2 do
  local id = entries[i]
  local score = tonumber(entries[i + 1])
  if id ~= ARGV[1] then
    local url = redis.call('GET', ARGV[2] .. id)
    if not url then
      redis.call('ZREM', KEYS[1], id)
    elseif (ARGV[3] == '' or score < tonumber(ARGV[3])
        or (score == tonumber(ARGV[3]) and id < ARGV[1]))
        and redis.call('EXISTS', ARGV[4] .. id) == 0 then
      redis.call('SET', ARGV[4] .. id, '1', 'PX', ARGV[5])
      return url
    end
  end
end
return false
";

/// Reserves (as [`CLAIM_QUICK`] does) the oldest ranked entry of another live instance that is
/// older than ours (score ARGV[3], member ARGV[4]) and inside both players' rating windows,
/// and returns its URL. ARGV[5] is our rating, ARGV[6] now (ms); ARGV[7..9] the window: start,
/// growth per second, wait after which anyone fits (ms); ARGV[10] the reservation key prefix,
/// ARGV[11] its lifetime (ms).
const CLAIM_RANKED: &str = r"
local mine = tonumber(ARGV[3])
local now = tonumber(ARGV[6])
local function window(since)
  local waited = now - since
  if waited >= tonumber(ARGV[9]) then return math.huge end
  return tonumber(ARGV[7]) + tonumber(ARGV[8]) * math.max(waited, 0) / 1000
end
local entries = redis.call('ZRANGE', KEYS[1], 0, 255, 'WITHSCORES')
for i = 1, #entries, 2 do
  local member = entries[i]
  local score = tonumber(entries[i + 1])
  local id, rating = string.match(member, '^([^|]+)|[^|]+|([-0-9.]+)$')
  if id and id ~= ARGV[1] then
    local url = redis.call('GET', ARGV[2] .. id)
    if not url then
      redis.call('ZREM', KEYS[1], member)
    elseif score < mine or (score == mine and member < ARGV[4]) then
      local gap = math.abs(tonumber(rating) - tonumber(ARGV[5]))
      if gap <= window(score) and gap <= window(mine)
          and redis.call('EXISTS', ARGV[10] .. member) == 0 then
        redis.call('SET', ARGV[10] .. member, '1', 'PX', ARGV[11])
        return url
      end
    end
  elseif not id then
    redis.call('ZREM', KEYS[1], member)
  end
end
return false
";

/// Updates this instance's free-for-all entry (ARGV[3] players waiting, the longest since
/// ARGV[4]; none: the entry goes) and finds the gathering point of the shared queue: the live
/// instance with the most players waiting, then the longest wait, then the smallest id. If
/// that is another instance, returns its URL, and (when we have players, who are now sent
/// there) withdraws our entry in the same step, so two instances never send their players to
/// each other. Entries of dead instances are dropped on the way.
const GATHER_FFA: &str = r"
local mine = tonumber(ARGV[3])
if mine > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3] .. '|' .. ARGV[4])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
local best, best_count, best_since, best_url = nil, 0, 0, false
if mine > 0 then
  best, best_count, best_since = ARGV[1], mine, tonumber(ARGV[4])
end
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local id = entries[i]
  if id ~= ARGV[1] then
    local count, since = string.match(entries[i + 1], '^(%d+)|(%d+)$')
    local url = redis.call('GET', ARGV[2] .. id)
    if (not url) or (not count) then
      redis.call('HDEL', KEYS[1], id)
    else
      count = tonumber(count)
      since = tonumber(since)
      if (not best) or count > best_count
          or (count == best_count and (since < best_since
            or (since == best_since and id < best))) then
        best, best_count, best_since, best_url = id, count, since, url
      end
    end
  end
end
if best and best ~= ARGV[1] then
  if mine > 0 then
    redis.call('HDEL', KEYS[1], ARGV[1])
  end
  return best_url
end
return false
";

/// One instance's view of the shared Redis.
#[derive(Clone)]
pub(crate) struct Store {
    /// For the pub/sub connection, which is one of its own (`crate::cluster::social`).
    client: redis::Client,
    conn: ConnectionManager,
    /// This instance's id (random, fresh at every start).
    id: String,
    ttl: Duration,
    claim_rooms: Script,
    release_room: Script,
    locate_room: Script,
    claim_quick: Script,
    claim_ranked: Script,
    gather_ffa: Script,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("id", &self.id).finish()
    }
}

const INSTANCE: &str = "sevenbag:instance:";
const ROOM: &str = "sevenbag:room:";
const QUICK: &str = "sevenbag:quick";
const RANKED: &str = "sevenbag:ranked";
const QUICK_RESERVED: &str = "sevenbag:quick-reserved:";
const RANKED_RESERVED: &str = "sevenbag:ranked-reserved:";
const FFA: &str = "sevenbag:ffa";
/// The pub/sub channel of presence, friendship and notification records
/// (`crate::cluster::social`).
pub(crate) const SOCIAL: &str = "sevenbag:social";

/// How long a claimed queue entry stays reserved for the player sent to it: a reconnect
/// takes milliseconds; a player who never arrives frees the entry after this.
pub(crate) const RESERVE_MS: u64 = 3_000;

fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

impl Store {
    /// Connects to `url` (a `redis://` URL) within [`CALL_TIMEOUT`].
    pub(crate) async fn connect(url: &str, id: String, ttl: Duration) -> Result<Store, StoreError> {
        let client = redis::Client::open(url)?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CALL_TIMEOUT))
            .set_response_timeout(Some(CALL_TIMEOUT))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let conn = bounded(ConnectionManager::new_with_config(client.clone(), config)).await?;
        Ok(Store {
            client,
            conn,
            id,
            ttl,
            claim_rooms: Script::new(CLAIM_ROOMS),
            release_room: Script::new(RELEASE_ROOM),
            locate_room: Script::new(LOCATE_ROOM),
            claim_quick: Script::new(CLAIM_QUICK),
            claim_ranked: Script::new(CLAIM_RANKED),
            gather_ffa: Script::new(GATHER_FFA),
        })
    }

    /// This instance's id.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// `PING`: Redis answers.
    pub(crate) async fn ping(&self) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        bounded(redis::cmd("PING").query_async::<String>(&mut conn)).await?;
        Ok(())
    }

    /// Says this instance is alive at `public_url` for one more TTL.
    pub(crate) async fn heartbeat(&self, public_url: &str) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        let key = format!("{INSTANCE}{}", self.id);
        bounded(conn.pset_ex::<_, _, ()>(key, public_url, ms(self.ttl))).await
    }

    /// Claims (or refreshes) the directory entries of `codes` for this instance.
    pub(crate) async fn claim_rooms(&self, codes: &[String]) -> Result<usize, StoreError> {
        if codes.is_empty() {
            return Ok(0);
        }
        let mut conn = self.conn.clone();
        let mut call = self.claim_rooms.prepare_invoke();
        for code in codes {
            call.key(format!("{ROOM}{code}"));
        }
        call.arg(&self.id).arg(ms(self.ttl));
        bounded(call.invoke_async::<usize>(&mut conn)).await
    }

    /// Removes room `code` from the directory if it is ours.
    pub(crate) async fn release_room(&self, code: &str) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        let mut call = self.release_room.key(format!("{ROOM}{code}"));
        call.arg(&self.id);
        bounded(call.invoke_async::<i64>(&mut conn)).await?;
        Ok(())
    }

    /// The public URL stored for the live instance, other than this one, that runs room
    /// `code` (unchecked: the caller validates it).
    pub(crate) async fn locate_room(&self, code: &str) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn.clone();
        let mut call = self.locate_room.key(format!("{ROOM}{code}"));
        call.arg(&self.id).arg(INSTANCE);
        bounded(call.invoke_async::<Option<String>>(&mut conn)).await
    }

    /// Advertises (or withdraws) this instance's waiting quick-match player.
    pub(crate) async fn set_quick(&self, since_ms: Option<u64>) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        match since_ms {
            Some(score) => bounded(conn.zadd::<_, _, _, ()>(QUICK, &self.id, score)).await,
            None => bounded(conn.zrem::<_, _, ()>(QUICK, &self.id)).await,
        }
    }

    /// Reserves another instance's quick-match entry (only one older than
    /// `older_than`, if given) and returns its URL.
    pub(crate) async fn claim_quick(
        &self,
        older_than: Option<u64>,
    ) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn.clone();
        let mut call = self.claim_quick.key(QUICK);
        call.arg(&self.id)
            .arg(INSTANCE)
            .arg(older_than.map(|s| s.to_string()).unwrap_or_default())
            .arg(QUICK_RESERVED)
            .arg(RESERVE_MS);
        bounded(call.invoke_async::<Option<String>>(&mut conn)).await
    }

    /// Advertises `waiting` free-for-all players here, the longest waiting since `since_ms`
    /// (none: withdraws the entry), and returns the URL of the shared queue's gathering point
    /// if it is another instance (see [`GATHER_FFA`]).
    pub(crate) async fn gather_ffa(
        &self,
        waiting: usize,
        since_ms: u64,
    ) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn.clone();
        let mut call = self.gather_ffa.key(FFA);
        call.arg(&self.id).arg(INSTANCE).arg(waiting).arg(since_ms);
        bounded(call.invoke_async::<Option<String>>(&mut conn)).await
    }

    /// The sorted-set member of a ranked player of this instance.
    pub(crate) fn ranked_member(&self, client: u64, rating: f64) -> String {
        format!("{}|{client}|{:.0}", self.id, rating)
    }

    /// Adds and removes ranked entries of this instance.
    pub(crate) async fn set_ranked(
        &self,
        add: &[(String, u64)],
        remove: &[String],
    ) -> Result<(), StoreError> {
        if add.is_empty() && remove.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn.clone();
        let mut pipe = redis::pipe();
        for (member, score) in add {
            pipe.zadd(RANKED, member, *score).ignore();
        }
        for member in remove {
            pipe.zrem(RANKED, member).ignore();
        }
        bounded(pipe.query_async::<()>(&mut conn)).await
    }

    /// Reserves another instance's ranked entry that fits our player (`member`, waiting since
    /// `since_ms`, rated `rating`) out of the queue and returns its URL.
    pub(crate) async fn claim_ranked(
        &self,
        member: &str,
        since_ms: u64,
        rating: f64,
        now_ms: u64,
    ) -> Result<Option<String>, StoreError> {
        let mut conn = self.conn.clone();
        let mut call = self.claim_ranked.key(RANKED);
        call.arg(&self.id)
            .arg(INSTANCE)
            .arg(since_ms)
            .arg(member)
            .arg(format!("{rating:.0}"))
            .arg(now_ms)
            .arg(WINDOW_START)
            .arg(WINDOW_GROWTH)
            .arg(ms(WINDOW_ANY))
            .arg(RANKED_RESERVED)
            .arg(RESERVE_MS);
        bounded(call.invoke_async::<Option<String>>(&mut conn)).await
    }

    /// Publishes `payload` on [`SOCIAL`].
    pub(crate) async fn publish_social(&self, payload: &str) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        bounded(conn.publish::<_, _, ()>(SOCIAL, payload)).await
    }

    /// A new connection of its own subscribed to [`SOCIAL`].
    pub(crate) async fn subscribe_social(&self) -> Result<redis::aio::PubSub, StoreError> {
        let mut pubsub = bounded(self.client.get_async_pubsub()).await?;
        bounded(pubsub.subscribe(SOCIAL)).await?;
        Ok(pubsub)
    }

    /// Removes every key and entry of this instance (a clean stop).
    pub(crate) async fn leave(
        &self,
        rooms: &[String],
        ranked: &[String],
    ) -> Result<(), StoreError> {
        let mut conn = self.conn.clone();
        let mut pipe = redis::pipe();
        pipe.del(format!("{INSTANCE}{}", self.id)).ignore();
        pipe.zrem(QUICK, &self.id).ignore();
        pipe.hdel(FFA, &self.id).ignore();
        for member in ranked {
            pipe.zrem(RANKED, member).ignore();
        }
        bounded(pipe.query_async::<()>(&mut conn)).await?;
        for code in rooms {
            self.release_room(code).await?;
        }
        Ok(())
    }
}
