# ---- The runtime: the same for every design; MIGRATION above is this plan's data. ----

import base64
import json
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config


class UsageError(Exception):
    pass


def env_name(role):
    name = MIGRATION["env"].get(role)
    if name is None:
        raise UsageError(f"refusing to start: the role {role} has no variable")
    return name


def check_variables():
    """Refuses a migration whose roles would share a variable (compared as Windows compares
    them, ignoring case): one table given twice, for two roles (issue 41)."""
    seen = {}
    for role in MIGRATION["roles"]:
        name = env_name(role).upper()
        if name in seen:
            raise UsageError(
                f"refusing to start: the roles {seen[name]} and {role} both read "
                f"{env_name(role)}; a table is ambiguous"
            )
        seen[name] = role


def whole(flag, text, least):
    try:
        n = int(text)
    except (TypeError, ValueError):
        n = None
    if n is None or n < least:
        raise UsageError(f"{flag} takes a whole number of at least {least}, not {text}")
    return n


def parse_args(argv):
    check_variables()
    tables = {}
    for role in MIGRATION["roles"]:
        name = os.environ.get(env_name(role))
        if name:
            tables[role] = name
    options = {
        "endpoint": None,
        "region": os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION"),
        "segments": 4,
        "page_size": 100,
        "max_wcu": MIGRATION["maxWcu"],
        "checkpoint": "keyplan-migration.checkpoint.json",
        "max_pages": None,
        "dry_run": False,
    }
    i = 0
    while i < len(argv):
        flag = argv[i]

        def value():
            nonlocal i
            i += 1
            if i >= len(argv):
                raise UsageError(f"{flag} needs a value")
            return argv[i]

        if flag == "--table":
            pair = value()
            role, _, name = pair.partition("=")
            if not role or not name:
                raise UsageError(f"--table takes ROLE=NAME, not {pair}")
            if role not in MIGRATION["roles"]:
                raise UsageError(
                    f"--table {pair}: this migration has no table {role}; its tables are "
                    + ", ".join(MIGRATION["roles"])
                )
            tables[role] = name
        elif flag == "--endpoint":
            options["endpoint"] = value()
        elif flag == "--region":
            options["region"] = value()
        elif flag == "--segments":
            options["segments"] = whole(flag, value(), 1)
        elif flag == "--page-size":
            options["page_size"] = whole(flag, value(), 1)
        elif flag == "--max-wcu":
            options["max_wcu"] = whole(flag, value(), 1)
        elif flag == "--checkpoint":
            options["checkpoint"] = value()
        elif flag == "--max-pages":
            options["max_pages"] = whole(flag, value(), 1)
        elif flag == "--dry-run":
            options["dry_run"] = True
        else:
            raise UsageError(f"unknown argument {flag}")
        i += 1
    missing = [r for r in MIGRATION["roles"] if r not in tables]
    if missing:
        raise UsageError(
            "refusing to start: no table given for "
            + ", ".join(f"{r} (--table {r}=NAME or {env_name(r)})" for r in missing)
        )
    for step in MIGRATION["steps"]:
        for target in step["targets"]:
            if target != step["source"] and not step["inPlace"] and tables[target] == tables[step["source"]]:
                raise UsageError(
                    f"refusing to start: {target} and {step['source']} are the same table "
                    f"{tables[target]}; a rebuild copies into a new table"
                )
    if options["region"] is None:
        if options["endpoint"] is None:
            raise UsageError("give --region or AWS_REGION")
        options["region"] = "us-east-1"
    options["tables"] = tables
    return options


# ---- Items: key text, templates, the rules core's migrated_item applies ----


def key_text(v):
    if v is None:
        return None
    if "S" in v:
        return v["S"]
    if "N" in v:
        return v["N"]
    if "B" in v:
        return base64.b64encode(bytes(v["B"])).decode("ascii")
    return None


NUMBER = re.compile(r"^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")


def canonical_number(text):
    """A number's text as DynamoDB returns it (plain decimal, no exponent), or None."""
    m = NUMBER.match(text.strip())
    if m is None or (m.group(2) == "" and (m.group(3) or "") == ""):
        return None
    int_part, frac_part = m.group(2), m.group(3) or ""
    digits_all = int_part + frac_part
    first = next((i for i, c in enumerate(digits_all) if c != "0"), None)
    if first is None:
        return "0"
    digits = digits_all[first:].rstrip("0")
    if len(digits) > 38:
        return None
    exponent = len(int_part) - first + int(m.group(4) or "0")
    if exponent < -129 or exponent > 126:
        return None
    if exponent <= 0:
        out = "0." + "0" * (-exponent) + digits
    elif exponent >= len(digits):
        out = digits + "0" * (exponent - len(digits))
    else:
        out = digits[:exponent] + "." + digits[exponent:]
    return ("-" if m.group(1) == "-" else "") + out


def typed_key(text, kind):
    if text == "":
        return None
    if kind == "S":
        return {"S": text}
    if kind == "N":
        n = canonical_number(text)
        return None if n is None else {"N": n}
    return {"B": text.encode("utf-8")}


def shard_of(item, derived, n):
    """FNV-1a over the item's names and key texts, leaving out derived keys: core's shard_of."""
    h = 0xCBF29CE484222325
    for name in sorted(item, key=lambda s: s.encode("utf-8")):
        if name in derived:
            continue
        data = name.encode("utf-8") + b"\0" + (key_text(item[name]) or "").encode("utf-8") + b"\0"
        for b in data:
            h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h % max(n, 1)


def render(parts, kind, item, derived):
    if kind == "B" and len(parts) == 1 and isinstance(parts[0], dict) and "var" in parts[0]:
        v = item.get(parts[0]["var"])
        if v is not None and "B" in v:
            return {"B": v["B"]}
    text = ""
    for part in parts:
        if isinstance(part, str):
            text += part
        elif "shard" in part:
            text += str(shard_of(item, derived, part["shard"]))
        else:
            t = key_text(item.get(part["var"]))
            if t is None:
                return None
            text += t
    return typed_key(text, kind)


def migrate(entity, rules, item):
    """The item in the new design's shape: core's migrated_item, rule for rule."""
    out = dict(item)
    derived = set(rules["derived"])
    for rule in rules["keys"]:
        if rule["unchanged"] and (rule["template"] is None or rule["attribute"] in item):
            continue
        out.pop(rule["attribute"], None)
        if rule["template"] is None:
            continue
        value = render(rule["template"], rule["type"], item, derived)
        if value is not None:
            out[rule["attribute"]] = value
        elif rule["tableKey"]:
            raise RuntimeError(
                f"an item of {entity} has no value for every variable of "
                f"{rule['attribute']}'s template (item {json.dumps(to_json(item))})"
            )
    return out


def match_template(parts, text):
    out = []
    rest = text
    for i, part in enumerate(parts):
        if isinstance(part, str):
            if not rest.startswith(part):
                return None
            rest = rest[len(part):]
            continue
        following = parts[i + 1] if i + 1 < len(parts) else None
        if isinstance(following, str):
            at = rest.find(following)
            if at < 0:
                return None
            value = rest[:at]
        elif following is not None:
            if rest == "" or ord(rest[0]) > 0x7F:
                return None
            value = rest[:1]
        else:
            value = rest
        if value == "":
            return None
        if "shard" in part:
            if not re.fullmatch(r"[0-9]+", value):
                return None
        else:
            out.append((part["var"], value))
        rest = rest[len(value):]
    return out if rest == "" else None


MARKERS = ["entityType", "entity_type", "type", "_type", "__typename"]


def identify(shape, item):
    """The entity whose key templates match the item: core's sample::identify."""
    for marker in MARKERS:
        name = (item.get(marker) or {}).get("S")
        if name is not None and any(e["name"] == name for e in shape["entities"]):
            return name
    best = None
    for entity in shape["entities"]:
        if not entity["templates"]:
            continue
        literal = 0
        ok = True
        for name, parts in entity["templates"]:
            text = key_text(item.get(name))
            found = None if text is None else match_template(parts, text)
            if found is None:
                ok = False
                continue
            literal += sum(len(p.encode("utf-8")) for p in parts if isinstance(p, str))
            for variable, value in found:
                own = key_text(item.get(variable))
                if own is not None and own != value:
                    ok = False
        if ok and (best is None or literal > best[0]):
            best = (literal, entity["name"])
    return None if best is None else best[1]


def value_json(v):
    if "B" in v:
        return {"B": base64.b64encode(bytes(v["B"])).decode("ascii")}
    if "BS" in v:
        return {"BS": sorted(base64.b64encode(bytes(b)).decode("ascii") for b in v["BS"])}
    if "SS" in v:
        return {"SS": sorted(v["SS"])}
    if "NS" in v:
        return {"NS": sorted(v["NS"])}
    if "L" in v:
        return {"L": [value_json(x) for x in v["L"]]}
    if "M" in v:
        return {"M": to_json(v["M"])}
    return dict(v)


def to_json(item):
    return {name: value_json(item[name]) for name in sorted(item, key=lambda s: s.encode("utf-8"))}


def from_json_key(key):
    out = {}
    for name, v in key.items():
        if "B" in v:
            out[name] = {"B": base64.b64decode(v["B"])}
        else:
            out[name] = dict(v)
    return out


def same_value(a, b):
    return (None if a is None else value_json(a)) == (None if b is None else value_json(b))


def same(a, b):
    return to_json(a) == to_json(b)


def key_of(names, item):
    return {name: item[name] for name in names if name in item}


def value_size(v):
    if "S" in v:
        return len(v["S"].encode("utf-8"))
    if "N" in v:
        return (len(re.sub(r"[^0-9]", "", v["N"])) + 1) // 2 + 1
    if "B" in v:
        return len(bytes(v["B"]))
    if "SS" in v:
        return sum(len(s.encode("utf-8")) for s in v["SS"])
    if "NS" in v:
        return sum(len(s) for s in v["NS"])
    if "BS" in v:
        return sum(len(bytes(b)) for b in v["BS"])
    if "L" in v:
        return 3 + sum(1 + value_size(x) for x in v["L"])
    if "M" in v:
        return 3 + item_size(v["M"])
    return 1


def item_size(item):
    return sum(len(name.encode("utf-8")) + value_size(v) for name, v in item.items())


def units(*items):
    """Write units of a write of an item this size: one per KB started."""
    return max([1] + [-(-item_size(i) // 1024) for i in items])


# ---- Rate, checkpoint, writes ----


class Bucket:
    """A token bucket of write units, refilled at `rate` a second, shared by the segments."""

    def __init__(self, rate):
        self.rate = rate
        self.tokens = rate
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def take(self, n):
        while True:
            with self.lock:
                now = time.monotonic()
                self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
                self.last = now
                need = min(n, self.rate)
                if self.tokens >= need:
                    self.tokens -= n
                    return
                wait = (need - self.tokens) / self.rate
            time.sleep(wait)


def load_checkpoint(options):
    tables = dict(sorted(options["tables"].items()))
    fresh = {"plan": MIGRATION["plan"], "segments": options["segments"], "tables": tables, "steps": {}}
    if not os.path.exists(options["checkpoint"]):
        return fresh
    try:
        with open(options["checkpoint"], encoding="utf-8") as f:
            found = json.load(f)
    except (OSError, ValueError) as error:
        raise UsageError(f"the checkpoint {options['checkpoint']} cannot be read: {error}") from error
    if not isinstance(found, dict):
        raise UsageError(f"the checkpoint {options['checkpoint']} is not a checkpoint")
    if found.get("plan") != MIGRATION["plan"]:
        raise UsageError(
            f"the checkpoint {options['checkpoint']} is of another migration (plan {found.get('plan')}, "
            f"this one is {MIGRATION['plan']}): remove it or give another --checkpoint"
        )
    if found.get("segments") != options["segments"]:
        raise UsageError(
            f"the checkpoint {options['checkpoint']} was made with --segments {found.get('segments')}: resume with the same"
        )
    if found.get("tables") != tables:
        raise UsageError(f"the checkpoint {options['checkpoint']} is for the tables {found.get('tables')}, not {tables}")
    return found


class Migration:
    def __init__(self, options, client, checkpoint):
        self.options = options
        self.client = client
        self.bucket = Bucket(options["max_wcu"])
        self.checkpoint = checkpoint
        self.counts = {"written": 0, "updated": 0, "deleted": 0, "present": 0, "gone": 0, "unchanged": 0, "units": 0, "scanned": 0}
        self.pages = 0
        self.stopped = False
        self.lock = threading.Lock()

    def count(self, what, n=1):
        with self.lock:
            self.counts[what] += n

    def save(self):
        if self.options["dry_run"]:
            return
        temporary = self.options["checkpoint"] + ".tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(self.checkpoint, f, indent=2)
        os.replace(temporary, self.options["checkpoint"])

    def table_for(self, step, role):
        """The real name of a table the step may write: its source or one of its targets."""
        name = self.options["tables"].get(role)
        if (role != step["source"] and role not in step["targets"]) or name is None:
            raise RuntimeError(
                f"refusing to write to {role}: step {step['id']} writes only "
                + ", ".join([step["source"]] + step["targets"])
            )
        return name

    def dry(self, what, table, item):
        line = f"DRY RUN {what} {table} {json.dumps(to_json(item))}\n"
        with self.lock:
            sys.stdout.write(line)
            sys.stdout.flush()

    def conditional(self, call, done, failed, n, **request):
        self.bucket.take(n)
        self.count("units", n)
        try:
            call(**request)
            self.count(done)
        except self.client.exceptions.ConditionalCheckFailedException:
            self.count(failed)

    def put(self, step, role, key, item):
        table = self.table_for(step, role)
        if self.options["dry_run"]:
            return self.dry("put-if-absent", table, item)
        self.conditional(
            self.client.put_item, "written", "present", units(item),
            TableName=table, Item=item,
            ConditionExpression="attribute_not_exists(#k)",
            ExpressionAttributeNames={"#k": key[0]},
        )

    def update(self, step, key, before, after):
        table = self.table_for(step, step["source"])
        if self.options["dry_run"]:
            return self.dry("update", table, after)
        names = {"#k": key[0]}
        values = {}
        sets, removes = [], []
        every = sorted(set(before) | set(after), key=lambda s: s.encode("utf-8"))
        for i, name in enumerate(every):
            a, b = before.get(name), after.get(name)
            if b is None:
                names[f"#a{i}"] = name
                removes.append(f"#a{i}")
            elif not same_value(a, b):
                names[f"#a{i}"] = name
                values[f":v{i}"] = b
                sets.append(f"#a{i} = :v{i}")
        expression = " ".join(
            part for part in [
                "SET " + ", ".join(sets) if sets else "",
                "REMOVE " + ", ".join(removes) if removes else "",
            ] if part
        )
        request = dict(
            TableName=table, Key=key_of(key, before), UpdateExpression=expression,
            ConditionExpression="attribute_exists(#k)", ExpressionAttributeNames=names,
        )
        if values:
            request["ExpressionAttributeValues"] = values
        self.conditional(self.client.update_item, "updated", "gone", units(before, after), **request)

    def remove(self, step, key, item):
        table = self.table_for(step, step["source"])
        if self.options["dry_run"]:
            return self.dry("delete", table, key_of(key, item))
        self.conditional(
            self.client.delete_item, "deleted", "gone", units(item),
            TableName=table, Key=key_of(key, item),
            ConditionExpression="attribute_exists(#k)",
            ExpressionAttributeNames={"#k": key[0]},
        )

    def process(self, step, item):
        """One scanned item: left alone when it already has the new shape, else written in it."""
        old_shape = MIGRATION["old"][step["source"]]
        new_shape = MIGRATION["new"].get(step["source"])
        if step["inPlace"] and new_shape is not None:
            current = identify(new_shape, item)
            rules = None if current is None else MIGRATION["rules"].get(current)
            if rules and rules["role"] == step["source"] and same(migrate(current, rules, item), item):
                self.count("unchanged")
                return
        entity = identify(old_shape, item)
        if step["entity"] is not None and entity != step["entity"]:
            return
        claimed = entity is not None and entity in MIGRATION["rules"]
        rules = MIGRATION["rules"][entity] if claimed else None
        if claimed and rules is None:
            # The new design drops the entity.
            if step["inPlace"]:
                self.remove(step, old_shape["key"], item)
            return
        after = migrate(entity, rules, item) if claimed else item
        role = rules["role"] if claimed else step["unclaimed"]
        if role is None:
            return
        new_key = MIGRATION["newKeys"][rules["table"] if claimed else step["source"]]
        if role == step["source"] and all(same_value(item.get(k), after.get(k)) for k in old_shape["key"]):
            if same(item, after):
                self.count("unchanged")
            else:
                self.update(step, old_shape["key"], item, after)
            return
        self.put(step, role, new_key, after)
        # The old key goes only once the new one is there.
        if step["inPlace"]:
            self.remove(step, old_shape["key"], item)

    def segment(self, step, segment):
        try:
            self.scan_segment(step, segment)
        except BaseException:
            # The other segments stop at their next page; the checkpoint keeps their place.
            self.stopped = True
            raise

    def scan_segment(self, step, segment):
        with self.lock:
            places = self.checkpoint["steps"].setdefault(step["id"], {})
            place = places.setdefault(str(segment), {"done": False, "lastKey": None})
        source = self.table_for(step, step["source"])
        while not place["done"] and not self.stopped:
            request = dict(
                TableName=source, Segment=segment, TotalSegments=self.options["segments"],
                Limit=self.options["page_size"],
            )
            if place["lastKey"] is not None:
                request["ExclusiveStartKey"] = from_json_key(place["lastKey"])
            page = self.client.scan(**request)
            self.count("scanned", len(page.get("Items", [])))
            for item in page.get("Items", []):
                self.process(step, item)
            last = page.get("LastEvaluatedKey")
            with self.lock:
                if not last:
                    place["done"] = True
                    place["lastKey"] = None
                else:
                    place["lastKey"] = to_json(last)
                self.save()
                self.pages += 1
                if self.options["max_pages"] is not None and self.pages >= self.options["max_pages"]:
                    self.stopped = True

    def summary(self, done):
        c = self.counts
        return json.dumps(dict(
            {"done": done, "dryRun": self.options["dry_run"], "writes": c["written"] + c["updated"] + c["deleted"]},
            **c,
        ))


def main(argv):
    try:
        options = parse_args(argv)
        checkpoint = load_checkpoint(options)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    client = boto3.client(
        "dynamodb", endpoint_url=options["endpoint"], region_name=options["region"],
        config=Config(retries={"max_attempts": 10, "mode": "standard"}),
    )
    for instruction in MIGRATION["instructions"]:
        if instruction["phase"] == "expand":
            print(f"Before this program (not done by it): {instruction['text']}")
    for role, name in sorted(options["tables"].items()):
        try:
            client.describe_table(TableName=name)
        except Exception as error:  # noqa: BLE001 - any failure means the table cannot be used
            print(f"refusing to start: table {name} ({role}) cannot be described: {error}", file=sys.stderr)
            return 2
    run = Migration(options, client, checkpoint)
    for step in MIGRATION["steps"]:
        print(f"Step {step['id']}: {step['action']}", flush=True)
        with ThreadPoolExecutor(max_workers=options["segments"]) as pool:
            futures = [pool.submit(run.segment, step, s) for s in range(options["segments"])]
            for future in futures:
                future.result()
        places = run.checkpoint["steps"].get(step["id"], {}).values()
        if run.stopped and not all(p["done"] for p in places):
            print(f"Stopped after {run.pages} pages (--max-pages); run again to resume from {options['checkpoint']}.")
            print(run.summary(False))
            return 3
    for instruction in MIGRATION["instructions"]:
        if instruction["phase"] != "expand":
            print(f"After this program, once nothing reads the old shape (not done by it): {instruction['text']}")
    print(run.summary(True))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Exception as error:  # noqa: BLE001 - said in one line, exit 1
        print(error, file=sys.stderr)
        sys.exit(1)
